"""Informix sqlcode and ISAM code tables: DB-API class, SQLSTATE and a message, per code.

The Informix server does not send message texts: ``SQ_ERR`` carries only the sqlcode, the ISAM
code, an offset and one short parameter (a table name, a column name...). Every client therefore
ships its own catalogue. This is ours. The texts are written for ifxwire, in our own words.
They are not copied from IBM's message files. Run ``finderr <number>`` on a server host for
IBM's long explanations.

The tables are plain text, parsed once when the module is first imported. ``ifxwire.errors``
imports this module lazily, the first time an error is built, so ``import ifxwire`` never pays
for it. A text table keeps one code per line: easy to review, grep and diff. Parsing some
200 lines takes well under a millisecond.

Line format of ``_SQL_TABLE`` (whitespace separated, the text is the rest of the line)::

    <code>[?]  <kind>  <sqlstate or ->  <text>

* ``?`` right after the code marks an entry whose number or exact meaning we are not sure of.
  Such codes are collected in ``UNSURE``, so docs and tests can list them.
* kind: ``I`` IntegrityError, ``P`` ProgrammingError, ``O`` OperationalError, ``D`` DataError,
  ``N`` NotSupportedError, ``X`` InternalError, ``E`` plain DatabaseError. ``E`` is used for
  the generic "could not read/write/position" family. ``ifxwire.errors`` refines it from the
  ISAM code, so a failed read caused by a lock becomes an OperationalError.
* sqlstate: ``-`` means "derive it from the class" (see ``ifxwire.errors`` and docs/ERRORS.md).
* ``%s`` in the text is where the server's parameter (the "near" token) goes. Write it
  with a space before it, as ``'%s'`` or ``%s``. The space lets the renderer drop the slot
  cleanly when the server sends no parameter.

Every number's meaning is checked against the message catalogue IBM ships in its JDBC jar
(``com/informix/msg/sql_en_US.properties`` and ``isam_en_US.properties``); where that jar's
code-to-SQLSTATE map (``itoxmsg_en_US.properties``, what IBM JDBC's ``getSQLState()`` gives)
names a SQLSTATE of another class than ours, the entry follows it (-285, -276: 24000; -543:
22019), and the codes that map names are all here. We keep the ODBC 3 forms (42S02 for IBM's
S0002) within a class.

This module deliberately imports nothing. It maps codes to kind letters, not to classes.
That way the table can be loaded, checked or generated without importing the exception classes.
"""

from __future__ import annotations

__all__ = ["ISAMCODES", "KINDS", "SQLCODES", "UNSURE", "UNSURE_ISAM"]

#: The kind letters that may appear in the table, with the class each one stands for.
KINDS: dict[str, str] = {
    "I": "IntegrityError",
    "P": "ProgrammingError",
    "O": "OperationalError",
    "D": "DataError",
    "N": "NotSupportedError",
    "X": "InternalError",
    "E": "DatabaseError",
}

_SQL_TABLE = """
# --- ISAM codes that also reach clients as the sqlcode itself -------------------------------
-100    I  -      A unique index already holds this value (duplicate row).
-103    E  -      Invalid index key description (too many parts, or too long).
-104    O  -      The database server has too many files open.
-105    X  -      An ISAM file has a bad format; the table or index may be damaged.
-106    O  -      The operation needs exclusive access, but other sessions have the table open.
-107    O  40001  The row is locked by another session.
-111    E  -      The requested record does not exist.
-112    E  -      There is no current record to act on.
-113    O  40001  The table is locked by another session.
-115    O  -      The database server could not create a lock file.
-116    O  HY001  The database server could not allocate memory.
-126    X  -      The database server met an invalid rowid.
-129    O  -      Too many users are connected to the database server.
-131    O  -      The database server has run out of disk space.
-134    O  -      The database server has run out of locks (raise LOCKS, or lock fewer rows).
-136    O  -      The table cannot grow: no more extents are available.
-143    O  40001  Deadlock detected; this statement was chosen to fail.
-144    O  40001  The index key value is locked by another session.
-154    O  40001  Timed out waiting for a lock (see SET LOCK MODE TO WAIT).
# --- statement errors, -200 .. -999 ----------------------------------------------------------
-200    P  -      An identifier is too long.
-201    P  -      Syntax error in the SQL statement.
-202    P  -      The statement contains a character that is not allowed there.
-203    P  -      A value given where an integer is required is not a valid integer.
-204    P  -      A floating-point number in the statement is not valid (out of FLOAT's range).
-205    P  -      ROWID is not available here: a view or a derived table has none.
-206    P  42S02  Table '%s' is not in the database.
-208    O  HY001  The database server could not allocate memory for the query.
-211    E  -      Cannot read system catalog '%s'.
-212    E  -      Could not add the index.
-213    O  HY008  The statement was interrupted (cancelled).
-217    P  42S22  Column '%s' is not in any table of the query, and is not a defined variable.
-218    P  42S02  Synonym '%s' was not found.
-219    P  -      MATCHES or LIKE wildcards can only be used with character values.
-223    P  -      Table name '%s' appears twice in the FROM clause; give one an alias.
-226    P  -      A system catalog table cannot be indexed: '%s'.
-229    O  -      Could not open or create a temporary file.
-230    O  -      Could not read a temporary file.
-232    P  -      SERIAL column '%s' cannot be updated.
-233    O  40001  The row is locked by another session and cannot be read.
-235    P  -      The declared CHAR column size is too large.
-236    P  21S01  The INSERT column list and the VALUES list have different numbers of items.
-239    I  -      Duplicate value in a column with a UNIQUE index; the row was not inserted.
-240    E  -      Could not delete a row.
-242    E  -      Could not open table '%s'.
-243    E  -      Could not position within table '%s'.
-244    E  -      Could not do a physical-order read to fetch the next row.
-245    E  -      Could not position within a file through an index.
-246    E  -      Could not do an indexed read to get the next row.
-249    P  -      A select-list expression needs a display label to name its column.
-250    E  -      Could not read a row for update.
-251    P  -      An ORDER BY or GROUP BY select number is larger than the select list.
-252    E  -      Could not get system information for the table.
-253    P  -      An identifier is longer than this server version allows.
-254    P  07001  The number of values supplied does not match the statement's parameters.
-255    O  25000  No transaction is open (COMMIT or ROLLBACK without BEGIN WORK).
# -256 is NotSupportedError on purpose: PEP 249 names "rollback() on a connection that does not
# support transactions" as the example of NotSupportedError, and that is exactly this case.
-256    N  -      The database has no transaction log: use autocommit, or enable logging (ondblog).
-257    O  -      The session reached the server's limit on prepared statements; free some.
-258    X  -      The database server received an invalid statement id.
-259    P  24000  The cursor is not open.
-260    P  07005  A prepared SELECT must be run through a cursor, not with EXECUTE.
-261    E  -      Could not create the file for table '%s'.
-262    P  24000  There is no current cursor.
-263    O  40001  Could not lock the row for update.
-264    O  -      Could not write to a temporary file.
-265    O  25000  Insert and FOR UPDATE cursors need an open transaction in a logged database.
-266    P  24000  The cursor has no current row for WHERE CURRENT OF.
-267    P  24000  The cursor was released (FREE); prepare and declare it again.
-268    I  -      Unique constraint '%s' violated.
-269    I  -      NOT NULL column '%s' cannot be added while the table holds rows.
-271    E  -      Could not insert the new row into the table.
-272    P  42501  The SELECT privilege is required for this operation.
-273    P  42501  The UPDATE privilege is required for this operation.
-274    P  42501  The DELETE privilege is required for this operation.
-275    P  42501  The INSERT privilege is required for this operation.
-276    P  24000  The cursor was not found.
-282    P  -      A quoted string has no closing quote.
-284    P  21000  A subquery returned more than one row where at most one was allowed.
-285    P  24000  The database server received an invalid cursor.
-286    P  -      Primary key column '%s' cannot have a NULL default.
-287    P  -      Cannot add SERIAL column '%s' to the table.
-288    P  -      Table '%s' is not locked by this session.
-289    O  40001  Cannot lock table '%s' in the requested mode.
-290    P  24000  The cursor was not declared FOR UPDATE.
-292    I  -      Column '%s' does not accept NULL, and the INSERT gave it no value.
-293    P  -      IS [NOT] NULL can only be applied to a simple column here.
-294    P  -      Column '%s' must be in the GROUP BY list.
-297    P  -      No primary key or unique constraint of referenced table %s covers the columns.
-298    P  42501  A privilege cannot be granted to PUBLIC WITH GRANT OPTION.
-299    P  42501  You cannot grant a privilege to yourself.
-302    P  42501  You lack the GRANT option, or the option is not valid on this view.
-304    P  -      HAVING may use only aggregates and GROUP BY columns, not '%s'.
-306    D  22003  A subscript is out of range.
-308    P  -      Corresponding columns of a UNION, INTERSECT or MINUS must have compatible types.
-309    P  -      ORDER BY column '%s' must also be in the select list.
-310    P  42S01  Table '%s' already exists in the database.
-312    E  -      Cannot update system catalog '%s'.
-314    O  -      Table '%s' is in use by another session.
-316    P  42S11  Index '%s' already exists in the database.
-317    P  -      All parts of a UNION must select the same number of columns.
-319    P  42S12  The index does not exist.
-321    P  -      Cannot GROUP BY an aggregate expression.
-322    P  -      View '%s' cannot be altered, renamed or given a BEFORE/AFTER trigger.
-323    P  -      Privileges cannot be granted on a temporary table.
-324    P  -      Column reference '%s' is ambiguous; qualify it with a table name.
-327    O  25000  A table cannot be unlocked inside a transaction.
-328    P  42S21  Column '%s' already exists in the table.
# -329 is OperationalError, like "database does not exist" in other drivers: connect() raises it.
-329    O  3D000  The database was not found, or you have no permission to open it.
-330    E  -      Cannot create or rename the database.
-337    P  -      A view cannot be created on temporary table %s.
-346    E  -      Could not update a row in the table.
-348    E  -      Could not read a row from the table.
-349    P  3D000  No database is open (connect with a database name, or run DATABASE first).
-350    P  42S11  An index on these columns already exists.
-352    P  42S22  Column '%s' was not found.
-354    P  -      The database or cursor name is not in a valid format.
-356    P  -      The referencing and referenced columns have different data types.
-359    O  -      The current database, or another open one, cannot be dropped or renamed.
-360    P  -      A table read by a subquery cannot be modified by the same statement.
-362    P  -      A table can have only one SERIAL column.
-363    P  24000  The cursor is not declared for a SELECT statement.
-364    P  -      Column %s is not in the FOR UPDATE OF list of the cursor.
-365    P  -      FOR UPDATE needs a simple SELECT (one table, no GROUP BY, DISTINCT or aggregate).
-366    P  -      The scale is larger than the declared precision.
-367    P  -      SUM and AVG cannot be computed on character columns.
-368    O  08001  The database server's SQL engine is not compatible with this client.
-370    P  -      ALTER TABLE cannot drop the last column of a table.
-371    I  -      Cannot create a unique index: the column already holds duplicate values.
-374    P  -      With UNION, ORDER BY must refer to columns by number.
-377    O  25000  The transaction must end before the database is closed.
-378    O  40001  The record is locked by another session.
-382    P  -      The view's column list and its SELECT list differ in length.
-384    P  -      This view cannot be modified (it is not a simple single-table view).
-385    I  44000  A row written through a view WITH CHECK OPTION is one the view would not show.
-387    P  42501  You have no CONNECT privilege on this database.
-388    P  42501  The RESOURCE privilege is required for this operation.
-389    P  42501  The DBA privilege is required for this operation.
-390    P  -      The synonym name is already used by a table or synonym.
-391    I  -      Column '%s' does not accept NULL.
-392    X  -      The database server met an unexpected null pointer.
-393    P  -      A WHERE condition turns this into a two-sided outer join.
-395    P  -      The WHERE clause yields an outer Cartesian product.
-397    X  -      System catalog '%s' is corrupted.
-399    O  -      Cannot access the transaction log file.
-400    P  24000  FETCH on a cursor that is not open.
-404    P  07003  The cursor or statement is not available.
-406    O  HY001  Memory allocation failed.
-407    O  08S01  The database server reported error number zero; the session state is uncertain.
-408    O  08S01  Unexpected message type between client and server; is the port SQLI (not DRDA)?
-410    P  26000  The statement was not prepared, or its PREPARE failed.
-413    P  24000  PUT on an insert cursor that is not open.
-415    D  22018  A value could not be converted to the type it is used as.
-425    O  -      The database is open in another session; this operation needs it exclusively.
-443    P  -      A bound of the FOR loop's range is NULL (loop variable %s).
-457    O  08006  The database server terminated unexpectedly.
-458    O  40000  Long transaction aborted and rolled back (the logical logs filled up).
-459    O  08006  The database server was shut down.
-460    P  54000  The statement is longer than the database server allows.
-467    D  22002  An indicator is missing for a NULL value.
-471    P  33000  The SQL descriptor name is not valid.
-472    D  22003  The item number in the SQL descriptor is out of range.
-481    P  26000  Unknown statement name, or the statement was not prepared.
-482    P  24000  This operation needs a SCROLL cursor.
-483    P  42000  The SQL descriptor name is longer than 128 characters.
-499    P  -      The row would be longer than Informix's limit of 32,767 bytes.
-507    P  34000  Cursor '%s' was not found.
-508    P  -      A temporary table cannot be renamed.
-509    P  -      A column of a temporary table cannot be renamed.
-510    P  -      A synonym cannot name temporary table '%s'.
-513    N  -      This statement is not available on this database server.
-514    P  42501  Only a DBA can create, drop, grant or revoke on behalf of another user.
-517    P  54000  The index is too large, or has too many parts.
-521    O  40001  Cannot lock system catalog '%s'.
-522    P  -      Table '%s' is not part of this query.
-524    P  25000  LOCK TABLE can be used only inside a transaction.
-525    I  -      Referential constraint '%s' is not satisfied.
-526    N  -      A scroll cursor cannot be used for updates.
-527    N  -      This lock mode is not available on this system.
-528    O  54000  The output row is larger than the database server allows.
-530    I  -      Check constraint '%s' failed.
-532    P  -      A temporary table cannot be altered: %s
-535    O  25000  A transaction is already open (BEGIN WORK inside a transaction).
-541    P  42501  The ALTER privilege is required for this operation.
-542    P  -      A column appears more than once in the constraint or index.
-548    P  -      Triggers and referential constraints are not allowed on a TEMP table.
-543    D  22019  The ESCAPE character must be exactly one byte.
-561    P  -      SUM and AVG cannot be computed over DATETIME values.
-568    P  -      A logged database cannot refer to a database without logging.
-569    P  -      A database without logging cannot refer to a logged database.
-570    P  -      A non-ANSI database cannot refer to an ANSI-mode database.
-571    P  -      An ANSI-mode database cannot refer to a non-ANSI database.
-577    P  -      A constraint of this type already exists on these columns.
-584    P  -      A system catalog table cannot be renamed.
-585    P  -      A column of a system catalog table cannot be renamed.
-586    P  24000  The cursor is already open.
-591    P  -      The default value does not suit column or variable '%s'.
-592    P  -      A NOT NULL column cannot have a NULL default.
-593    P  -      A SERIAL column cannot have a default value.
-594    P  -      A BYTE, TEXT, BLOB or CLOB column takes no default but NULL.
-596    P  -      EXIT or CONTINUE is not inside a %s loop.
-598    P  34000  Cursor name '%s' is not valid.
-608    D  -      TEXT or BYTE values cannot be converted this way.
-609    P  -      A TEXT or BYTE host variable cannot be used here.
-610    N  -      A TEXT or BYTE column cannot be indexed.
-611    N  -      A scroll cursor cannot select TEXT or BYTE columns.
-612    P  -      TEXT or BYTE values are not allowed in GROUP BY.
-613    P  -      TEXT or BYTE values are not allowed in DISTINCT.
-614    P  -      TEXT or BYTE values are not allowed in ORDER BY.
-615    P  -      TEXT or BYTE values are not allowed in this expression.
-623    P  -      Constraint '%s' was not found.
-625    P  -      A constraint named '%s' already exists.
-634    P  -      Object '%s' does not exist.
-635    P  42501  Only the owner of the object may do this.
-650    P  -      A VARCHAR or NVARCHAR is declared longer than 255 bytes.
-651    P  -      A VARCHAR's reserved size is larger than its maximum size.
-652    P  -      Only a GLOBAL SPL variable may have a DEFAULT value.
-653    P  -      A GLOBAL SPL variable cannot be declared LIKE a column.
-655    P  -      RETURN gives a different number of values than the RETURNING clause.
-656    P  -      RETURN gives values, but the routine declares no RETURNING clause.
-658    P  -      A GLOBAL SPL variable must have a DEFAULT value.
-660    P  -      The FOR loop's variable '%s' cannot be assigned inside the loop.
-662    P  -      Variable '%s' is already the variable of an enclosing FOR loop.
-666    P  -      Variable '%s' must be INTEGER or SMALLINT to step through a FOR range.
-668    O  -      The database server could not run the system command.
-669    P  -      Variable '%s' is declared twice in one statement block.
-670    P  -      Variable '%s' cannot be of a SERIAL type.
-671    P  -      A call of routine '%s' gives the same parameter twice.
-673    P  -      A routine named '%s' already exists.
-674    P  -      Routine '%s' cannot be resolved (no match for this name and these argument types).
-675    P  -      This statement is not allowed inside an SPL routine.
-677    P  -      A check constraint cannot contain a subquery, an aggregate or a procedure.
-681    P  -      Column '%s' appears more than once in the INSERT column list.
-683    P  -      The STEP of the FOR range goes away from its end; the range is never traversed.
-686    P  21000  Function '%s' returned more than one row.
-687    P  -      TRACE needs a debug file: run SET DEBUG FILE TO first.
-691    I  -      Referential constraint '%s': the key is missing from the referenced table.
-692    I  -      Key value for constraint '%s' is still referenced by another table.
-695    P  -      A named argument of the call of '%s' is not one of its parameters.
-696    P  -      Variable '%s' is used before it has a value.
-697    P  -      The STEP of the FOR range is zero.
-699    O  40000  The transaction was rolled back heuristically.
-703    I  IX000  A column of the primary key of table '%s' is NULL.
-704    P  -      The table has a primary key already.
-705    P  -      Routine '%s' cannot be dropped or changed: it is in use (a functional index).
-706    P  42501  The EXECUTE privilege on routine '%s' is required.
-710    O  -      Table '%s' was dropped, altered or renamed since PREPARE; prepare it again.
-717    D  22023  A built-in function got an argument it does not accept: %s.
-719    P  -      The FOR loop's variable '%s' cannot be a GLOBAL variable.
-721    O  -      SPL routine '%s' is no longer valid; objects it uses have changed.
-722    O  54001  The server ran out of stack space (the statement or routine nests too deeply).
-730    P  -      REFERENCING needs a FOR EACH ROW action in the trigger.
-732    P  -      A correlation name (OLD or NEW) is used where the trigger does not allow it.
-743    P  -      Object '%s' already exists in the database.
-744    P  -      This statement is not allowed in a trigger.
-745    E  -      A trigger action failed.
# -746 is the code of RAISE EXCEPTION in SPL: the message is the user's own text, verbatim.
-746    E  -      %s
-747    P  -      A trigger action refers to the table or column that fired the trigger.
-748    O  54000  Too many levels of cascading triggers.
-759    P  -      Database-level statements cannot be used on an explicit connection.
-761    O  08001  INFORMIXSERVER does not match the server's DBSERVERNAME or DBSERVERALIASES.
-762    O  54001  The statement nests too deeply: the parser's stack overflowed.
-766    D  22024  The string is not terminated by a null character.
-768    X  -      Internal error in server routine '%s'.
-772    I  -      The row (or index key) fits no fragment of the table's or index's scheme.
-773    P  -      A new fragment of an expression or list scheme needs its expression.
-774    P  -      A round-robin fragmentation scheme takes no fragment expressions.
-775    P  -      Fragment '%s' is not one of the table's or index's fragments.
-776    I  -      ALTER FRAGMENT would leave rows that fit no fragment of the new scheme.
-780    P  -      The table or index is not fragmented.
-781    P  -      The fragmentation of a temporary table cannot be altered.
-785    P  -      A fragment expression of the table or an index uses this column.
-800    P  -      Corresponding types must be compatible in a CASE expression or DECODE function.
-839    P  42S02  The table was not found.
-840    P  42000  The name is too long.
-841    P  42000  A name must start with a letter or '_' and hold only letters, digits and '_'.
-858    P  -      A fragment (partition or dbspace) name appears twice in the scheme.
-860    P  -      The fragmentation scheme would not have enough fragments.
-869    P  -      A fragment expression cannot hold a subquery or a routine call.
-870    P  -      A fragmentation scheme can have one REMAINDER fragment only.
-871    P  -      The REMAINDER fragment must come last.
-872    P  -      A unique index cannot be fragmented over columns outside its key.
-876    O  25001  SET TRANSACTION can be issued only once in a transaction.
-877    O  25000  SET TRANSACTION fixed this transaction's isolation level (no SET ISOLATION).
-878    O  25006  Invalid operation for a READ-ONLY transaction.
-879    D  22027  The trim character must be NULL or exactly one character long.
-884    P  -      An index of a temporary table cannot be altered.
-886    P  42000  The table or view cannot be dropped: other objects depend on it.
-887    P  2B000  The privilege cannot be revoked: privileges, views or constraints depend on it.
-891    P  -      The objects of a temporary table can only be enabled.
-895    P  -      START VIOLATIONS TABLE could not create the violations or diagnostics table.
-896    P  -      No violations table is started for the target table.
-897    P  -      A violations or diagnostics table cannot be altered or dropped while in use.
-898    P  -      The columns of a table with a started violations table cannot be altered.
-899    I  -      One statement wrote more diagnostics rows than the violations table's MAX ROWS.
-901    O  28000  The user is not in the network authorization file.
-902    O  28000  The user is not authorized, or the authorization file has too many entries.
# --- connection, login, user-defined routines, -900 .. -999 ---------------------------------
-908    O  08001  Connection to database server '%s' failed.
-930    O  08001  Cannot reach database server '%s' (check the host name and port).
-931    O  08001  Service '%s' is not defined in the services database.
-934    O  08006  The connection to the remote site is no longer valid.
# -937 carries its own SQLSTATE on the wire; pass it as error_from_server(..., sqlstate=...).
-937    E  -      A user-defined routine raised an error: %s
-940    P  -      A view with UNION, INTERSECT or MINUS cannot have WITH CHECK OPTION.
-944    P  -      FIRST, SKIP or LIMIT cannot be used in this context.
-947    P  -      An SPL variable cannot be named null (it would hide the NULL value).
-951    O  28000  Login rejected: wrong password, or user '%s' is unknown to the database server.
-952    O  28000  The password given for user '%s' is not correct.
-956    O  28000  Client host or user '%s' is not trusted by the database server.
-958    P  42S01  This session already has a temporary table '%s'.
-971    I  23000  Integrity violations were detected (FILTERING WITH ERROR; enabling over bad rows).
-973    P  -      Rows of a violations table cannot be inserted into its target table directly.
-999    N  -      The database server does not implement this feature.
# --- conversion library: numbers, dates, DATETIME / INTERVAL, -1200 .. -1299 ---------------
-1201   D  22003  A DECIMAL value is too small, or SUM/AVG was given a bare DATE difference.
-1202   D  22012  Division by zero.
-1204   D  22008  Invalid year in a DATE value.
-1205   D  22008  Invalid month in a DATE value.
-1206   D  22008  Invalid day in a DATE value.
-1207   D  22003  The converted value does not fit in the space allowed.
-1209   D  22007  A date with no separators must have exactly 6 or 8 digits.
-1210   D  22007  The date could not be converted to month/day/year form.
-1211   O  HY001  Out of memory.
-1212   D  22007  A date format must contain month, day and year parts.
-1213   D  22018  A character value could not be converted to a number.
-1214   D  22003  The value does not fit in a SMALLINT.
-1215   D  22003  The value does not fit in an INTEGER.
-1216   D  22018  Invalid exponent in a numeric value.
-1218   D  22007  A character value could not be converted to a DATE.
-1222   D  22003  The value does not fit in a SMALLFLOAT.
-1223   D  22003  The value does not fit in a FLOAT.
-1226   D  22003  The DECIMAL or MONEY value exceeds its declared precision.
-1260   D  -      The value cannot be converted between these types.
-1261   D  22008  The first field of a DATETIME or INTERVAL has too many digits.
-1262   D  22007  A DATETIME or INTERVAL value contains a non-numeric character.
-1263   D  22008  A field of a DATETIME or INTERVAL value is out of range.
-1264   D  22007  Extra characters follow a DATETIME or INTERVAL value.
-1265   D  22008  A DATETIME or INTERVAL operation overflowed.
-1266   D  -      These DATETIME or INTERVAL values cannot be combined in this operation.
-1267   D  22008  The result of the DATETIME computation is out of range.
-1268   D  22007  Invalid DATETIME or INTERVAL qualifier.
-1277   D  22007  The input does not match the format specification.
-1278   D  22025  Invalid escape sequence in the pattern.
-1279   D  22001  The value is longer than the string column allows.
-1284   D  22003  The value does not fit in an INT8 or BIGINT.
-8319   P  -      A sequence's NEXTVAL or CURRVAL cannot be used here.
-8325   P  -      NEXTVAL or CURRVAL cannot be used with DISTINCT.
-9885   P  -      A VARIANT routine cannot be used in a check constraint or fragment expression.
-19820  P  -      Informix OUTER and ANSI JOIN syntax cannot be mixed in one query block.
-19821  P  -      A table cannot be renamed through a synonym; name the table.
-19822  P  -      ALTER, TRUNCATE or DROP must name the table or view, not a synonym for it.
-19823  P  -      An INSTEAD OF trigger cannot use EXECUTE PROCEDURE or FUNCTION ... INTO.
-19824  P  -      An INSTEAD OF trigger cannot have BEFORE or AFTER actions.
-19825  P  -      An INSTEAD OF trigger cannot have a WHEN condition.
-19826  P  -      There is no INSTEAD OF trigger for a SELECT event.
-19827  P  -      An INSTEAD OF trigger can only be created on a view, not on table '%s'.
-19828  P  -      In this context an ORDER BY key must be in the select list (name its label).
-19829  P  -      An LVARCHAR is declared longer than 32,739 bytes.
-19837  P  -      SET PDQPRIORITY takes an integer from -1 to 100 (or DEFAULT, LOW, OFF, HIGH).
# --- extended types and routine resolution --------------------------------------------------
-8300   P  -      Sequence '%s' is not in the database.
-8302   D  22023  A value in the sequence definition is invalid or out of range.
-8303   P  -      Sequence option '%s' is given twice, or with its opposite.
-8305   D  22023  A sequence's INCREMENT cannot be 0.
-8309   D  22023  RESTART must lie between the sequence's MINVALUE and MAXVALUE.
-8312   P  -      ALTER SEQUENCE names no option to change.
-8313   D  2200H  Sequence '%s' has reached its MAXVALUE (and does not cycle).
-8314   D  2200H  Sequence '%s' has reached its MINVALUE (and does not cycle).
-8315   P  -      CURRVAL of sequence '%s' has no value in this session yet; use NEXTVAL first.
-9610   P  -      A collection is required here.
-9621   P  -      The derived column list does not match the collection's columns.
-9628   P  -      Type '%s' was not found.
-9630   P  -      The type '%s' cannot be dropped: it is still in use.
-9632   P  -      The value does not match the type of column '%s': an implicit cast is needed.
-9634   P  -      No cast is defined between these data types.
-9637   P  -      Cast function '%s' does not exist.
-9922   P  -      The cast does not exist in the database.
-9923   P  -      A cast cannot be created between these types (incompatible, or both built-in).
-9641   P  -      DROP TYPE drops only opaque and distinct types.
-9638   P  -      The UNDER privilege cannot be granted or revoked on a built-in type.
-9639   P  -      The UNDER privilege cannot be granted or revoked on a distinct type.
-9652   P  -      The UNDER privilege is only for typed tables.
-9653   P  42501  A subtype or subtable needs the UNDER privilege on its supertype or supertable.
-9651   P  -      TEXT or BYTE columns are not allowed in UNION, INTERSECT or MINUS.
-9657   P  -      The type of the collection cannot be determined here; cast it.
-9843   P  -      A functional index key part gives its routine the wrong number of arguments.
-9844   P  -      Function '%s' cannot be a functional index key (built-in, DML or LOB result).
-9848   P  -      Routine '%s' is VARIANT: a functional index key needs a NOT VARIANT function.
-9700   P  -      Routine '%s' is ambiguous: more than one routine of that name fits.
-9754   P  -      No usage privilege on this language.
-9752   P  -      An OUT or INOUT argument must be a variable (SPL or statement-local).
# --- smart large objects (BLOB/CLOB): texts after the catalogue in IBM's JDBC jar -----------
-9780   P  -      Statement-local variable '%s' can only be produced by a routine called in WHERE.
-9781   P  -      A statement-local variable cannot be an argument of EXECUTE or CALL.
-9782   P  -      Statement-local variable '%s' is defined twice.
-9784   P  -      Statement-local variable '%s' is used outside its producing routine's scope.
-9787   P  -      Statement-local variables cannot be used in the FROM clause.
-9810   E  -      Smart-large-object error (the ISAM code says which).
-9811   P  -      Invalid smart-large-object file descriptor %s.
-9814   O  -      Invalid default sbspace name '%s'.
-9815   P  -      Invalid file name specification '%s'.
-9819   P  -      Column '%s' has a type that cannot be stored in an sbspace.
-9820   P  -      Sbspace '%s' does not exist.
# --- OLAP window expressions and hierarchical queries (numbers from the JDBC jar's catalogue)
-25789   P  -      The file name of SET EXPLAIN FILE or SET DEBUG FILE must not be empty.
-25848   P  -      A functional index key's argument must be a non-collection column of the table.
-25850   P  -      A window frame (ROWS/RANGE) needs an ORDER BY in its window.
-25851   P  -      A window frame's extent is not valid (its offsets are unsigned integers).
-25852   P  -      The BETWEEN bounds of a window frame are not valid.
-25853   P  -      NTILE, LEAD, LAG and the ranking functions need an ORDER BY in their window.
-25854   P  -      NTILE, LEAD, LAG, ROW_NUMBER and the ranking functions take no window frame.
-25855   P  -      This option is not supported with a window aggregate.
-25856   P  -      A window aggregate cannot be used here.
-25858   P  -      A DISTINCT window aggregate takes no ORDER BY and no window frame.
-25859   P  -      The argument of NTILE is not valid.
-25860   P  -      The offset of LEAD or LAG is not valid.
-25861   P  -      The default of LEAD or LAG does not fit the type of its expression.
-25862   P  -      The argument of RATIO_TO_REPORT is not valid.
-26077   P  -      SAVEPOINT, RELEASE and ROLLBACK TO SAVEPOINT cannot run inside a trigger.
-26079   D  -      The rows of a CONNECT BY query form a loop (use NOCYCLE to stop at it).
-26082   P  -      CONNECT_BY_ISCYCLE needs the NOCYCLE keyword.
-26085   P  -      A CONNECT BY query cannot read a join of tables.
-26020   P  42501  TRUNCATE of a table with an enabled Delete trigger needs the Alter privilege.
# --- ROW, collection and distinct types (numbers from the catalogue in IBM's JDBC jar) -------
-9604   P  -      A collection column cannot be indexed.
-9606   P  -      A collection cannot be a GROUP BY key.
-9806   P  -      An unnamed ROW type cannot have two fields of one name, or a field without one.
-9808   P  -      A subtable's type must be a subtype of its supertable's type.
-9908   P  -      A ROW column cannot have a SERIAL, SERIAL8, BIGSERIAL, BYTE or TEXT field.
-9926   P  -      A ROW or collection cannot be ordered, distinct, set-combined, indexed or a key.
-9930   P  -      Collection elements cannot be SERIAL, SERIAL8, BIGSERIAL, BYTE or TEXT.
-9952   P  -      An aggregate cannot be a field of a ROW in the projection list.
-9945   P  -      A collection-derived table cannot be modified.
-9961   P  -      Object '%s' is inherited from a supertable and cannot be dropped here.
-9970   P  -      The type of a host variable cannot be determined here; cast it (?::INT).
-9975   P  -      A type may type only one table of a table hierarchy.
-9976   D  -      A NULL collection cannot be used as a table.
-9978   I  -      A collection cannot hold NULL elements.
-9989   D  -      The number of fields does not match the ROW type.
-9990   P  -      The named row type '%s' cannot be dropped: it is still in use.
-9991   P  -      The named row type '%s' already exists in the database.
-9992   P  -      The named row type '%s' was not found.
-9996   P  -      The distinct type '%s' already exists in the database.
-9997   P  42501  You lack the USAGE privilege on the data type '%s'.
# --- GLS / locale ---------------------------------------------------------------------------
# The -1800s were left out: we could not recall those numbers well enough to publish texts.
-19800  P  -      A user or role with this name already exists.
-19804  P  -      The role does not exist.
-19805  P  42501  This user has not been granted the role.
-23101  O  -      Cannot load the locale (check CLIENT_LOCALE and DB_LOCALE).
-23103  D  22021  Code-set conversion failed: illegal byte sequence or unconvertible character.
-23104  O  -      Cannot open the code-set conversion file for this pair of locales.
-23197  O  -      Locale mismatch: DB_LOCALE differs from the locale the database was created with.
-25800  P  -      A value is in two fragments of the list (or interval) scheme.
-25802  P  -      List and interval fragments need PARTITION names.
-25803  P  -      A list or interval scheme needs a fragment that is neither NULL nor REMAINDER.
-25815  P  -      The values of a list fragment must be constants.
-25817  P  -      The last list fragment that holds values cannot be dropped or detached.
-25823  P  -      BEFORE and AFTER are not allowed when adding a fragment to a list scheme.
-25826  P  -      A list or interval scheme can have one NULL fragment only.
# --- network (seen by applications that go through the CSDK network layer) ------------------
-26051  P  -      PREPARE or EXECUTE IMMEDIATE in an SPL routine was given a NULL statement text.
-26052  P  24000  The SPL cursor %s is already open.
-26053  P  24000  The SPL cursor %s is not open: FETCH and CLOSE need an open cursor.
-26054  P  24000  The SPL cursor %s is open: close it before FREE.
-26055  P  -      No prepared statement or cursor named %s in this SPL routine.
-26056  P  -      A function cursor %s in an SPL routine cannot be declared WITH HOLD.
-26057  P  -      The name %s is already taken by a statement, cursor or variable of the routine.
-26058  P  -      PREPARE or EXECUTE IMMEDIATE in an SPL routine takes one statement, not several.
-26059  P  -      The statement text of PREPARE or EXECUTE IMMEDIATE must be of a character type.
-26064  P  -      This statement cannot be prepared in an SPL routine: %s
-26062  P  20000  No WHEN of an SPL CASE statement matched and it has no ELSE.
-25571  O  08004  The database server cannot start a session now (session limit reached).
-25580 O  08S01  A network function failed.
-25582  O  08006  The network connection was broken.
-25596 O  08001  INFORMIXSERVER is not listed in the sqlhosts file.
"""

# ISAM codes arrive as the *second* number of SQ_ERR and explain the sqlcode ("could not read
# the row" + "record is locked"). -1 .. -99 are host errno values (these are the Linux numbers,
# which is what Informix servers in containers report). Format: <code>[?]  <text>.
_ISAM_TABLE = """
-1      operation not permitted for the server's OS user
-2      no such file or directory
-5      I/O error
-11     resource temporarily unavailable
-12     not enough memory
-13     permission denied
-17     file exists
-23     system file table is full
-24     too many open files
-28     no space left on device
-100    duplicate value in a unique index
-101    file is not open
-102    invalid argument to an ISAM function
-103    invalid key description (too many parts, or too long)
-104    too many files open
-105    bad ISAM file format
-106    exclusive access is required
-107    record is locked
-108    key already exists
-109    key is the primary key
-110    reached the beginning or end of the file
-111    no record found
-112    no current record
-113    file is locked
-114    file name too long
-115    cannot create lock file
-116    cannot allocate memory
-117    bad custom collating sequence
-118    cannot read a log record
-119    bad transaction log record
-120    cannot open the transaction log file
-121    cannot write to the transaction log file
-122    not in a transaction
-126    bad rowid
-127    no primary key
-128    no logging on this table or database
-129    too many users
-130    dbspace not found
-131    no free disk space
-132    row size too large
-133    audit trail exists
-134    no more locks
-136    no more extents
-143    deadlock detected
-144    key value is locked
-154    lock wait timeout expired
-172    unexpected internal error
-12014   smart large object: no such open LO file descriptor
-12034   smart large object: invalid buffer size
-12037   smart large object: invalid seek position
-12039   smart large object: invalid whence value for seek
-12040   smart large object: invalid truncate size
-12041   smart large object: object or buffer too big
-12051   smart large object: not opened for reading
-12052   smart large object: not opened for writing
-12053   smart large object: no sbspace
-12086   smart large object: invalid open flags
-12097   smart large object: bad address, the object may have been deleted
-12116   smart large object: corrupt header or invalid LO handle
"""


def _code(token: str, unsure: set[int]) -> int:
    """Read ``-123`` or ``-123?``; remember the second form as unsure."""
    if token.endswith("?"):
        code = int(token[:-1])
        unsure.add(code)
        return code
    return int(token)


def _parse_sql(text: str) -> tuple[dict[int, tuple[str, str, str]], frozenset[int]]:
    """Parse ``_SQL_TABLE``. Duplicate codes are a bug in the table, so they fail the import."""
    table: dict[int, tuple[str, str, str]] = {}
    unsure: set[int] = set()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        code_tok, kind, state, message = line.split(None, 3)
        code = _code(code_tok, unsure)
        if code in table:
            raise ValueError(f"duplicate sqlcode {code} in _SQL_TABLE")
        table[code] = (kind, "" if state == "-" else state, message)
    return table, frozenset(unsure)


def _parse_isam(text: str) -> tuple[dict[int, str], frozenset[int]]:
    """Parse ``_ISAM_TABLE``. Same rules as ``_parse_sql``, without kind or SQLSTATE."""
    table: dict[int, str] = {}
    unsure: set[int] = set()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        code_tok, message = line.split(None, 1)
        code = _code(code_tok, unsure)
        if code in table:
            raise ValueError(f"duplicate ISAM code {code} in _ISAM_TABLE")
        table[code] = message
    return table, frozenset(unsure)


#: sqlcode -> (kind letter, SQLSTATE or "" for "derive from the class", message template).
SQLCODES: dict[int, tuple[str, str, str]]
#: sqlcodes whose number or meaning is not confirmed (marked ``?`` in the table).
UNSURE: frozenset[int]
SQLCODES, UNSURE = _parse_sql(_SQL_TABLE)

#: ISAM code (negative) -> short lower-case text, shown after the sqlcode's message.
ISAMCODES: dict[int, str]
#: ISAM codes whose number or meaning is not confirmed.
UNSURE_ISAM: frozenset[int]
ISAMCODES, UNSURE_ISAM = _parse_isam(_ISAM_TABLE)

del _SQL_TABLE, _ISAM_TABLE
