-- fixture written by sympath: load after the schema
INSERT INTO "venues"("id", "name", "city") VALUES(0, '', '@@@@');
INSERT INTO "venues"("id", "name", "city") VALUES(1, '@@ @  @', '!`$!  @ ');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES((-9223372036854775807-1), 0, 21, 'closed');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES(0, 1, 21, 'open');
