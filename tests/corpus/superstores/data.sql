-- superstores, a few rows.
--
-- Models: rows of the kind superstores_demo holds (Reference, ids_sqr_354 and ids_sqr_376):
-- locations with LIST street addresses, customers typed by customer_t with a name_t name and
-- a LIST of contact dates, regions with SET and MULTISET columns. The values are ours.

insert into location values
  (0, 'US', 'All Sports Supplies', "LIST{'213 Erstwild Court'}", 'Sunnyvale', 'USA');
insert into location values
  (0, 'US', 'Sports Spot', "LIST{'785 Geary St', 'Suite 2'}", 'San Francisco', 'USA');
insert into location values
  (0, 'NU', 'Runners Corner', "LIST{'12 King St W'}", 'Toronto', 'Canada');

insert into customer values
  (0, 'R', ROW('Ludwig', 'Pauli')::name_t, 1, "LIST{'2026-01-05', '2026-03-17'}", 'A');
insert into customer values
  (0, 'W', ROW('Carole', 'Sadler')::name_t, 2, "LIST{'2026-02-11'}", 'B');
insert into customer values
  (0, 'W', ROW('Philip', 'Currie')::name_t, 3, "LIST{}", 'A');

insert into region values (1, 'West', "SET{'CA', 'OR', 'WA'}", "MULTISET{100, 250, 100}");
insert into region values (2, 'North', "SET{'ON'}", "MULTISET{75}");
