-- fixture written by sympath: load after the schema
INSERT INTO "venues"("id", "name", "city") VALUES(576460752303423488, '@@@@@   ', '    @');
INSERT INTO "venues"("id", "name", "city") VALUES(576460752303423490, '  @  @@ ', ' @   @@@');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES((-9223372036854775807-1), 576460752303423488, 21, 'closed');
INSERT INTO "events"("id", "venue_id", "price", "status") VALUES(0, 576460752303423488, 0, 'open');
