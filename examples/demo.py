"""A tour of ifxwire against the embedded server: ``make demo`` or ``python examples/demo.py``.

Starts ``ifxwire-server`` in-process on a free port with an in-memory data directory, then uses
the driver exactly as an application would against a real Informix server.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import ifxwire
from ifxwire.server import Server


def main() -> None:
    with Server(port=0, data=":memory:") as srv:
        print(f"ifxwire-server listening on {srv.host}:{srv.port}")
        with ifxwire.connect(
            host=srv.host, port=srv.port, user="informix", password="in4mix", autocommit=True
        ) as conn:
            print("server version:", conn.server_version)
            conn.execute("CREATE DATABASE demo WITH LOG")
        with ifxwire.connect(f"informix://informix:in4mix@{srv.host}:{srv.port}/demo") as conn:
            print("database logging mode:", conn.logging_mode)
            cur = conn.cursor()
            cur.execute(
                "CREATE TABLE orders (id SERIAL PRIMARY KEY, customer VARCHAR(40) NOT NULL, "
                "amount DECIMAL(12,2), placed DATE, shipped DATETIME YEAR TO SECOND)"
            )
            cur.execute(
                "INSERT INTO orders (customer, amount, placed, shipped) VALUES (?, ?, ?, ?)",
                (
                    "Ada",
                    Decimal("1234.50"),
                    dt.date(2026, 11, 22),
                    dt.datetime(2026, 11, 22, 9, 30, 0),
                ),
            )
            print("new order id (SERIAL via lastrowid):", cur.lastrowid)
            cur.executemany(
                "INSERT INTO orders (customer, amount, placed) VALUES (:1, :2, :3)",
                [
                    (f"customer {i}", Decimal(i) / 4, dt.date(2026, 1, 1 + i % 28))
                    for i in range(1000)
                ],
            )
            print("bulk insert rowcount:", cur.rowcount)
            conn.commit()
            cur.execute(
                "SELECT FIRST 3 id, customer, amount FROM orders WHERE amount > :min "
                "ORDER BY amount DESC",
                {"min": Decimal("10")},
            )
            print("columns:", [d[0] for d in cur.description])
            for row in cur:
                print("  ", row)
            cur.execute("SELECT COUNT(*), SUM(amount) FROM orders")
            print("count, sum:", cur.fetchone())
            try:
                cur.execute("SELECT nosuchcolumn FROM orders")
            except ifxwire.ProgrammingError as exc:
                print("a typed error with the server's sqlcode:", exc.sqlcode, "-", exc)


if __name__ == "__main__":
    main()
