-- fixture written by sympath: load after the schema
INSERT INTO "venues"("id", "name", "city") VALUES(0, '@', 'Oslo');
INSERT INTO "venues"("id", "name", "city") VALUES(2, '@@@@@@ @', 'Oslo');
INSERT INTO "venues"("id", "name", "city") VALUES(3, '  @ @@@@', 'Oslo');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES((-9223372036854775807-1), 0, 21, 'closed');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES(0, 3, 21, 'open');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES(1, 0, 0, 'closed');
