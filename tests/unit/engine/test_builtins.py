"""Built-in functions added for issue 12 (the coverage table is in docs/SERVER.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .conftest import Sql, codes


def test_builtins(db: Sql) -> None:
    db.run("CREATE TABLE a (id INT, s CHAR(10), d DATE, t DATETIME YEAR TO SECOND)")
    db.run("INSERT INTO a VALUES (1, 'hello', '2024-01-31', '2024-01-31 10:20:30')")
    one = "FROM a WHERE id = 1"
    assert db.rows(f"SELECT MOD(7, 3), MOD(7.5, 2) {one}") == [(1, Decimal("1.5"))]
    assert db.rows(f"SELECT ADD_MONTHS(d, 1), ADD_MONTHS(d, -13), LAST_DAY('2024-02-10'), "
                   f"NEXT_DAY(d, 'MON'), QUARTER(d) {one}") == [
        (dt.date(2024, 2, 29), dt.date(2022, 12, 31), dt.date(2024, 2, 29),
         dt.date(2024, 2, 5), 3 - 2)]
    assert db.rows(f"SELECT MONTHS_BETWEEN('2024-03-15', '2024-01-15'), "
                   f"MONTHS_BETWEEN(d, '2023-11-30') {one}") == [(Decimal(2), Decimal(2))]
    assert db.rows(f"SELECT REVERSE(s), TO_NUMBER('12.5'), ROOT(16), ROOT(27, 3) {one}") == [
        ("olleh", Decimal("12.5"), 4.0, 3.0)]
    assert db.rows(f"SELECT BITAND(5, 3), BITOR(5, 3), BITXOR(5, 3), BITNOT(5) {one}") == [
        (1, 7, 6, -6)]
    assert db.rows(f"SELECT NVL2(s, 'a', 'b'), ASIN(0), DEGREES(0) {one}") == [("a", 0.0, 0.0)]
    assert db.rows(f"SELECT SITENAME, DBSERVERNAME {one}") == [("informix", "informix")]
    assert codes(db.err(f"SELECT ADD_MONTHS(t, 1) {one}"))[0] == -999
    assert codes(db.err(f"SELECT NEXT_DAY(d, 'XYZ') {one}"))[0] == -1260
    assert codes(db.err(f"SELECT NO_SUCH_FUNCTION(1) {one}"))[0] == -674
