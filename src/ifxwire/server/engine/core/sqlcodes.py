"""Every Informix sqlcode and ISAM code the engine raises, with the evidence for each.

One table, so a wrong number is wrong in one place and every number says where it came from.
It stays one file over the house's ~800 lines on purpose: its length is its data (a constant
and its evidence per code, then MESSAGES, the text per code), with one four-line function;
split by subject, a code's number and its text would sit in two files, and the one place to
look up "which code is this" would be gone.
Message texts follow the Informix error-message catalogue wording (``finderr``); ``%s`` is
filled with the EngineError ``near`` text, as the server fills it from SQ_ERR's error text.

Evidence keys used below:
  [peer]  recorded against real Informix 12.10/14.10/15 by the informix-driver tests
          (peer-informix-driver.md section 4);
  [cat]   the Informix error-message catalogue (finderr / "IBM Informix Error Messages"),
          quoted from memory of its wording: code and meaning are standard, exact text may differ
          in punctuation;
  [brief] the value the project lead asked for, not independently verified;
  [guess] our best judgement where we found no evidence; listed so it can be checked on a real
          server;
  [jcat]  the Informix message catalogue IBM ships inside the JDBC jar
          (``com/informix/msg/sql_en_US.properties``, ``sblob_en_US.properties``, 15.0.0.1):
          the code and its text are Informix's own; when a real server sends it is our judgement.
"""

from __future__ import annotations

# --- SQL syntax and name resolution ------------------------------------------------------------
SYNTAX = -201  # [peer] test_errors::test_syntax_error_is_programming_error
ILLEGAL_CHAR = -202  # [cat] "An illegal character has been found in the statement."
NO_TABLE = -206  # [peer] near = table name; isam -111 [cat]
NO_COLUMN = -217  # [peer] near = column name
INSERT_COUNT = -236  # [cat] "Number of columns in INSERT does not match number of VALUES."
VIEW_COLUMNS = -382  # [jcat] (CREATE VIEW v (cols) with another number of columns; a WITH
#   clause's column list too [guess])
UNION_COLUMNS = -317  # [jcat] "...the same number of selected columns in each UNION, INTERSECT,
#   or MINUS query."
UNION_TYPES = -308  # [jcat] "...corresponding column data types must be compatible for each
#   UNION, INTERSECT, or MINUS query." (a DISTINCT type and another without an implicit cast:
#   fidelity48 [inferred])
CASE_TYPES = -800  # [jcat] "Corresponding data types must be compatible in CASE expression or
#   DECODE function." (also NVL, NVL2, COALESCE here [inferred]; fidelity48)
HOSTVAR_COUNT = -254  # [cat] "Too many or too few host variables given."
UNMATCHED_QUOTE = -282  # [peer] CHANGELOG 2026.09.03: 'a\'b' is unterminated -> -282
HAVING_NOT_GROUPED = -304  # [jcat] "HAVING can only have expressions with aggregates or columns
#   in GROUP BY clause."
NOT_IN_GROUP = -294  # [cat] "The column (%s) must be in the GROUP BY list."
AMBIGUOUS_COLUMN = -324  # [cat] "Ambiguous column (%s)."
COLUMN_EXISTS = -328  # [cat] "Column (%s) already exists in table."
SERIAL_TWICE = -362  # [cat] "Can have only one column of type SERIAL."
NO_ROUTINE = -674  # [cat] "Routine (%s) can not be resolved."
ROUTINE_EXISTS = -673  # [cat] "Cannot create routine (%s): a routine with that name exists."
TOO_MANY_STATEMENTS = -257  # [jcat] "System limit on maximum number of statements exceeded,
#   maximum is %s." (Server max_statements)
STATEMENT_TOO_LONG = -460  # [doc] HCL JDBC -79864 "Statement length exceeds the maximum" is
#   "the same as error -460 returned by the database server" (Server max_statement_bytes)
PARSE_STACK = -762  # [cat] "Stack overflow occurred during statement parse." (nesting > 40)
BAD_FUNCTION_ARG = -717  # [cat] "Invalid argument passed to system function(%s)." (CHR(256))
TYPE_NOT_FOUND = -9628  # [cat] "Type (%s) not found."
ROW_TYPE_EXISTS = -9991  # [jcat] "Named row type (%s) already exists in database."
ROW_TYPE_IN_USE = -9990  # [jcat] "Cannot drop named row type (%s): still in use."
ROW_TYPE_NOT_FOUND = -9992  # [jcat] "Named row type (%s) not found."
DROP_INHERITED = -9961  # [jcat] "Cannot drop inherited object (%s)." (ALTER TABLE subtable
#   DROP CONSTRAINT of its supertable's constraint)
UNDER_ON_BASE_TYPE = -9638  # [jcat] "Grant/Revoke under on base types disallowed."
UNDER_ON_DISTINCT = -9639  # [jcat] "Grant/Revoke under on distinct of non-row types disallowed."
UNDER_ON_UNTYPED = -9652  # [jcat] "Grant/Revoke UNDER on untyped table is not allowed."
NO_UNDER = -9653  # [jcat] "UNDER privilege required to create subtype/subtable."
SUBTABLE_TYPE = -9808  # [jcat] "Subtable's type must be a subtype of supertable's type."
TYPE_TWICE_IN_HIERARCHY = -9975  # [jcat] "Type of a table must be unique within a table
#   hierarchy." (CREATE TABLE ... UNDER with a type another table of the hierarchy has)
DISTINCT_TYPE_EXISTS = -9996  # [jcat] "Distinct type (%s) already exists in database."
TYPE_IN_USE = -9630  # [jcat] "Cannot drop type (%s): still in use."
DROP_TYPE_KIND = -9641  # [jcat] "Drop type can only drop opaque type or distinct type."
ROW_FIELD_COUNT = -9989  # [jcat] "Incorrect number of fields in the ROW Type."
NULL_IN_COLLECTION = -9978  # [jcat] "Insertion of NULLs into a collection disallowed."
COLLECTION_REQUIRED = -9610  # [jcat] "A collection data type must be supplied within this context."
DERIVED_COLUMN_COUNT = -9621  # [jcat] "The number of derived columns do not match the actual …"
COLLECTION_TYPE_UNKNOWN = -9657  # [jcat] "Cannot determine the data type of a collection in …"
READ_ONLY_COLLECTION = -9945  # [jcat] "Cannot modify a read-only collection"
NULL_COLLECTION = -9976  # [jcat] "Manipulation of NULL collection disallowed."
HOSTVAR_TYPE_UNKNOWN = -9970  # [jcat] "Cannot determine host variable type during bind."
NOT_IMPLEMENTED = -999  # [cat] "Not implemented yet." (real Informix code; we add what is missing)
# What Hibernate's InformixDialect tests record a real Informix refusing (refusals.py; the
# [jcat] text is the catalogue's, the case it is sent for is ours, see docs/SERVER.md).
CANNOT_ADD_INDEX = -212  # [jcat] "Cannot add index." (an index or key on BYTE/TEXT)
FOR_UPDATE_NOT_SIMPLE = -365  # [jcat] "Cursor must be on simple SELECT for FOR UPDATE."
SCALE_EXCEEDS_PRECISION = -366  # [jcat] "The scale exceeds the maximum precision specified."
# Over-long or inverted type declarations (twenty-second session; docs/SERVER.md "Type
# declarations"): the catalogue texts name each case, the pages give the limits.
CHAR_SIZE = -235  # [jcat] "Character column size is too big." (CHAR/NCHAR over 32,767)
VARCHAR_SIZE = -650  # [jcat] "Maximum varchar size has been exceeded." (VARCHAR over 255;
#   pengdows.crud's testbed records this text from a live server)
VARCHAR_RESERVE = -651  # [jcat] "Reserved column size > maximum column size (varchar)."
LVARCHAR_SIZE = -19829  # [jcat] "LVARCHAR column size exceeds 32739."
BAD_QUALIFIER = -1268  # [jcat] "Invalid datetime or interval qualifier." (MINUTE TO HOUR, …)
ILLEGAL_FLOAT = -204  # [jcat] "An illegal floating point number has been found in the
#   statement." (a literal no FLOAT holds: 1e400)
ROWSIZE_LIMIT = -499  # [jcat] "The operation causes a rowsize to exceed the allowable limit …"
ROWID_NOT_ALLOWED = -205  # [jcat] "... you cannot use ROWID for views with union, intersect,
#   minus, aggregates, group by, multiple tables, or derived tables." (sql/rowids.py)
OUTPUT_ROWSIZE = -528  # [jcat] "Maximum output rowsize (32767) exceeded."
ESCAPE_LENGTH = -543  # [jcat] "ESCAPE character must be only one byte."
# [jcat] 'Cannot use "first", "limit" or "skip" in this context.': the Projection clause's SKIP,
# FIRST or LIMIT in a subquery (not a FROM-clause derived table) or a view definition (Guide
# to SQL: Tutorial 14.10, "FIRST clause to select specific rows").
FIRST_CONTEXT = -944
BLOB_INDEX = -610  # [jcat] "Index not allowed on TEXT or BYTE columns." (CREATE INDEX)
BLOB_GROUP_BY = -612  # [jcat] 'Blobs are not allowed in the "group by" clause.'
BLOB_DISTINCT = -613  # [jcat] 'Blobs are not allowed in the "distinct" clause.'
BLOB_ORDER_BY = -614  # [jcat] 'Blobs are not allowed in the "order by" clause.'
BLOB_EXPRESSION = -615  # [jcat] "Blobs are not allowed in this expression."
VALUE_TYPE_MISMATCH = -9632  # [msgs] "Value does not match the type of column (%s)." (needs
# an implicit cast: a DISTINCT type assigned from another type, sql/udt_casts.py)
NO_CAST = -9634  # [jcat] "No cast from %s." (%s = "varchar to byte", as Hibernate quotes it)
CAST_FUNCTION_MISSING = -9637  # [msgs] "Cast function (%s) does not exist." (CREATE CAST WITH)
CAST_NOT_FOUND = -9922  # [msgs] "Cast does not exist in database." (DROP CAST)
CAST_INCOMPATIBLE = -9923  # [msgs] "Cannot create cast between incompatible types."
BLOB_SET_OPERATION = -9651  # [jcat] "… binary large objects are not allowed in the Union, …"
COMPOSITE_ORDERED = -9926  # [jcat] "… row-type or collection columns were referenced in ORDER BY…"
COLLECTION_GROUP_BY = -9606  # [jcat] 'Collections are not allowed in the "group by" clause.'
COLLECTION_INDEX = -9604  # [jcat] "Index not allowed on collections."
COLLECTION_ELEMENT_TYPE = -9930  # [jcat] "Byte, Text, Serial, … datatypes in collection types …"
ROW_FIELD_TYPE = -9908  # [jcat] "Columns of a row type may not contain fields of type text, …"
ROW_FIELD_NAMES = -9806  # [jcat] "Can not have duplicate/null field names in unnamed row types."
AGGREGATE_IN_ROW = -9952  # [jcat] "Aggregate within a ROW in a SELECT projection list is not …"

# --- objects -------------------------------------------------------------------------------------
VIRTUAL_COLUMN_NAME = -249  # [jcat] "Virtual column must have explicit name." (SELECT … INTO
#   a table of an expression without a display label: ids_sqs_2106 names the code)
SELECT_NUMBER_TOO_BIG = -251  # [jcat] "ORDER BY or GROUP BY column number is too big."
ORDER_KEY_NOT_LISTED = -19828  # [jcat] "ORDER BY column or expression must be in SELECT list in
#   this context." (ORDER BY a labelled expression of SELECT … INTO STANDARD|RAW: ids_sqs_2108)
ORDER_BY_NUMBER_ONLY = -374  # [jcat] "Can only use column number in ORDER BY clause with UNION."
#   (a combined query ordered by a name or expression: ids_sqs_1073)
MODIFIED_IN_SUBQUERY = -360  # [jcat] "Cannot modify table or view used in subquery."
INSERT_COLUMN_TWICE = -681  # [jcat] "Column specified more than once in the INSERT list."
ORDER_COLUMN_NOT_LISTED = -309  # [jcat] "ORDER BY column (%s) must be in SELECT list."
TABLE_EXISTS = -310  # [cat] "Table (%s) already exists in database."
INDEX_EXISTS = -316  # [cat] "Index (%s) already exists in database."
NO_INDEX = -319  # [cat] "Index (%s) does not exist in database."
COLUMN_TWICE = -542  # [jcat] "Cannot specify a column more than once in a constraint, trigger,
#   or index." (CREATE INDEX i ON t (a, a))
NO_CONSTRAINT = -623  # [cat] "Unable to find CONSTRAINT (%s)."
TABLE_CHANGED = -710  # [cat] "Table (%s) has been dropped, altered, or renamed." (lead's test)
TEMP_EXISTS = -958  # [cat] "Temp table (%s) already exists in session."
NON_SIMPLE_VIEW = -384  # [jcat] "Cannot modify non simple view." (DML on a view that is not
#   updatable: a join, UNION, DISTINCT, GROUP BY, aggregates; INSERT with derived columns)
VIEW_CHECK = -385  # [jcat] "Data value out of range." (a row written through a view WITH CHECK
#   OPTION that the view would not show)
VIEW_NOT_ALTERABLE = -322  # [jcat] "Cannot Alter a view, Rename a view or Create a trigger on a
#   view (%s)." (ALTER TABLE, RENAME TABLE, a BEFORE/AFTER trigger on a view; fourteenth round)
RENAME_CATALOG = -584  # [jcat] "Cannot rename system catalog." (RENAME TABLE of a catalogue table)
RENAME_CATALOG_COLUMN = -585  # [jcat] "Cannot rename column in system catalog."
RENAME_TEMP = -508  # [jcat] "Cannot rename a temporary table."
RENAME_TEMP_COLUMN = -509  # [jcat] "Cannot rename a column in a temporary table."
SYNONYM_FOR_TEMP = -510  # [jcat] "Cannot create synonym for temporary table (%s)."
PDQ_PRIORITY_VALUE = -19837  # [jcat] "Invalid PDQ priority value specified." (SET PDQPRIORITY
#   outside -1..100: ids_sqs_1179; fourteenth round)
FILE_NAME_EMPTY = -25789  # [jcat] "The file name in SET EXPLAIN FILE or SET DEBUG FILE must be
#   a non-null string." (fourteenth round)

# --- privileges -----------------------------------------------------------------------------------
NO_SELECT = -272  # [cat] "No SELECT permission."
NO_UPDATE = -273  # [cat] "No UPDATE permission."
NO_DELETE = -274  # [cat] "No DELETE permission."
NO_INSERT = -275  # [cat] "No INSERT permission."
NO_CONNECT = -387  # [cat] "No connect permission."
NO_RESOURCE = -388  # [cat] "No resource permission."
NO_DBA = -389  # [cat] "No DBA permission."
GRANT_PUBLIC_WITH_GRANT = -298  # [jcat] "Cannot grant permission to public with grant option."
NO_EXECUTE = -706  # [jcat] "Execute privilege denied on procedure (%s)."
TRUNCATE_NEEDS_ALTER = -26020  # [jcat] "Truncating a table with delete trigger requires ALTER
#   privilege." (ids_sqs_1236: an enabled Delete trigger needs Alter too)
OUT_ARGUMENT = -9752  # [jcat] an OUT/INOUT argument that is no variable; the code JDBC's
#   IfxCallableStatement constructor catches to use the fast path (PROTOCOL.md §10)
SLV_OUTSIDE_WHERE = -9780  # [jcat] "SLV (%s) cannot be produced from a UDR called from outside
#   the WHERE clause." (slv.py)
SLV_IN_CALL = -9781  # [jcat] "SLV cannot be an argument to a function invoked explicitly by
#   EXECUTE or CALL."
SLV_TWICE = -9782  # [jcat] "Statement Local Variable (%s) has already been defined."
SLV_OUT_OF_SCOPE = -9784  # [jcat] "SLV (%s) has no producer-UDR; or is outside the scope of the
#   producer-UDR." (used in a query enclosing the one that declares it)
SLV_IN_FROM = -9787  # [jcat] "SLV's not allowed in the from clause."

# --- roles ----------------------------------------------------------------------------------------
NO_ROLE = -19804  # [jcat] "Role does not exist."
ROLE_NOT_GRANTED = -19805  # [jcat] "No privilege to set to the role." (SET ROLE)
ROLE_EXISTS = -19800  # [jcat] "Role name already exists as a user or role."

# --- sequences ------------------------------------------------------------------------------------
# [guess] for all three: the catalogue numbers sequence errors in the -83xx range; we did not
# find the exact numbers, so these are our best reading and are listed to be checked.
CURRVAL_UNDEFINED = -8315  # [jcat] "Sequence (%s) CURRVAL is not yet defined in this session."
SEQUENCE_EXHAUSTED = -8313  # [jcat] "Sequence (%s) exceeds its MAXVALUE." (NOCYCLE, ascending)
SEQUENCE_BELOW_MIN = -8314  # [jcat] "Sequence (%s) goes below its MINVALUE." (descending)
SEQUENCE_OPTIONS = -8302  # [jcat] "A Sequence object definition value is invalid or out of
#   range." (contradictory CREATE/ALTER SEQUENCE options)
SEQUENCE_ZERO_STEP = -8305  # [jcat] "INCREMENT 0 is not allowed in sequences." (fourteenth round)
SEQUENCE_RESTART_RANGE = -8309  # [jcat] "Cannot RESTART the sequence at a value less than
#   MINVALUE or greater than MAXVALUE." (ids_sqs_0283; fourteenth round)
SEQUENCE_NO_OPTIONS = -8312  # [jcat] "No options specified for ALTER SEQUENCE." (fourteenth round)
SEQUENCE_OPTION_TWICE = -8303  # [jcat] "Duplicate or conflicting (%s) specification in sequence
#   definition." (ids_sqs_0281: each option at most once; fourteenth round)
NO_SEQUENCE = -8300  # [jcat] "The specified sequence object (%s) is not in the database."
#   (ALTER / DROP / RENAME SEQUENCE of a missing sequence; fifteenth round, the code an
#   inference from the text: it was -206)
SEQUENCE_NOT_HERE = -8319  # [jcat] "Sequence object cannot be used here." (NEXTVAL/CURRVAL
#   in WHERE, GROUP BY, ORDER BY, a subquery or a UNION: Guide to SQL: Syntax, ids_sqs_1465)
SEQUENCE_DISTINCT = -8325  # [jcat] "Distinct clause is not allowed on a sequence." (same page:
#   "In the projection list when the DISTINCT keyword is used")
RENAME_BY_SYNONYM = -19821  # [jcat] "Cannot rename a table using a synonym." (fifteenth round)
TABLE_BY_SYNONYM = -19822  # [jcat] "Cannot alter or truncate a table or drop a table or view
#   using a synonym." (fifteenth round)
DROP_LAST_COLUMN = -370  # [jcat] "Cannot drop last column." (fifteenth round; was -999)
GRANT_TO_SELF = -299  # [jcat] "Cannot grant permission to self." (fifteenth round)
GRANT_ON_TEMP = -323  # [jcat] "Cannot grant permission on temporary table." (fifteenth round)
DEFAULT_NULL_NOT_NULL = -592  # [jcat] "Cannot specify column to be not null when the default
#   value is null." (fifteenth round)
DEFAULT_ON_SERIAL = -593  # [jcat] "Cannot specify default value for SERIAL column." (fifteenth
#   round)
DEFAULT_ON_LOB = -594  # [jcat] "Cannot specify non-null default value for blob column."
#   (BYTE, TEXT, BLOB, CLOB; ids_sqs_0101; fifteenth round)
DEFAULT_INVALID = -591  # [jcat] "Invalid default value for column/variable (%s)." (a
#   character literal longer than its column; twenty-third round, our inference)
INDEX_ON_CATALOG = -226  # [jcat] "Cannot create index for system catalog (%s)." (twenty-third
#   round; was -999)
DEFAULT_NULL_PRIMARY_KEY = -286  # [jcat] "Default value of the primary key column %s is
#   NULL." (ids_sqs_0101; fifteenth round)
INDEX_TOO_MANY_PARTS = -517  # [jcat] "The total size of the index is too large or too many
#   parts in index." (more than 16 key columns, ids_sqs_0409; fifteenth round, was -201)
DUPLICATE_FROM_NAME = -223  # [jcat] "Duplicate table name (%s) in the FROM clause." (two FROM
#   items, or MERGE's target and source, known by one name; fifteenth round)
INDEX_SAME_COLUMNS = -350  # [jcat] "Index already exists on the column (or on the set of
#   columns)." (same columns, order and ASC/DESC as an existing index, ids_sqs_0413; fifteenth
#   round)
# Functional indexes (thirty-third session; features/functional_index.py; ids_sqs_0408,
# ids_prf_398): which situation gets which code is our reading of the catalogue's texts.
FUNC_KEY_ARG_COUNT = -9843  # [jcat] "Invalid number of arguments for functional key." (no
#   overload of the routine takes that many arguments [inference])
FUNC_KEY_FUNCTION = -9844  # [jcat] "Invalid function (%s) used in a functional key." (a
#   built-in function, a procedure, a function with a DML statement or that returns BLOB/CLOB/
#   BYTE/TEXT or more than one value, ids_sqs_0408 [inference])
FUNC_KEY_VARIANT = -9848  # [jcat] "Functional key part cannot use a variant function (%s)"
#   (a routine not declared WITH (NOT VARIANT), ids_sqs_0408)
FUNC_KEY_ARGUMENT = -25848  # [jcat] "The functional key argument is invalid." (an argument
#   that is not a column of the table, or a collection column, ids_sqs_0408 [inference])
ROUTINE_IN_USE = -705  # [jcat] "Cannot drop/modify procedure (%s). It is currently in use."
#   (DROP FUNCTION of a routine a functional index uses: ids_udr_314 "You cannot drop a UDR
#   that is in use by some database function, such as ..." [guess] for the code)
CHECK_OPTION_SET_VIEW = -940  # [jcat] "The statement failed because the WITH CHECK OPTION
#   keywords are not supported in UNION, INTERSECT, or MINUS views." (fifteenth round; was -999)
TWO_SIDED_OUTER = -393  # [jcat] "A condition in the where clause results in a two-sided outer
#   join." (a WHERE condition relating the tables of two OUTER items)
OUTER_WITH_ANSI_JOIN = -19820  # [jcat] "Informix OUTER JOIN and ANSI JOIN in the same query
#   block."
NO_USAGE = -9754  # [jcat] "No usage privilege." (CREATE PROCEDURE/FUNCTION without USAGE ON
#   LANGUAGE SPL)
NO_TYPE_USAGE = -9997  # [jcat] "No usage privilege on data type (%s)." (a column of a distinct
#   type without USAGE ON TYPE: ids_sqs_0832, ids_sqs_0373)

# --- databases -----------------------------------------------------------------------------------
NO_DATABASE = -329  # [cat]+[jdbc-protocol 2.4] "Database not found or no system permission."
CANNOT_CREATE_DB = -330  # [cat] "Cannot create or rename the database." (isam -100 if it exists)
NO_DB_SELECTED = -349  # [cat] "Database not selected yet."
EXPLICIT_DB = -759  # [jcat] "Cannot use database commands in an explicit database connection."
#   (a DBOPEN after a login that named a database: informix-driver saw -759 there on real
#   servers; docs/PROTOCOL.md §2, "A database name in the login")
DB_IN_USE = -425  # [cat] "Database is currently opened by another user."
DB_OPEN_DROP = -359  # [jcat] "Cannot drop or rename the current database or any open
#   database." (dropping the database this session has open)
EXTERNAL_NO_LOG = -568  # [jcat] "Cannot reference an external database without logging."
#   (db:table of an unlogged database from a logged or ANSI one; Guide to SQL: Tutorial,
#   "SQL statements that access more than one database": logging modes must match)
EXTERNAL_LOGGED = -569  # [jcat] "Cannot reference an external database with logging." (from an
#   unlogged database)
EXTERNAL_ANSI = -570  # [jcat] "Cannot reference an external ANSI database." (from a non-ANSI one)
EXTERNAL_NOT_ANSI = -571  # [jcat] "Cannot reference an external non-ANSI database." (a logged
#   non-ANSI database from an ANSI one)

# --- transactions --------------------------------------------------------------------------------
NOT_IN_TRANSACTION = -255  # [peer] COMMIT WORK without a transaction
NO_TRANSACTIONS = -256  # [cat] "Transaction not available." (unlogged database)
ALREADY_IN_TRANSACTION = -535  # [peer] BEGIN WORK inside a transaction
SET_TRANSACTION_ACTIVE = -876  # [jcat] "Cannot issue "Set Transaction" in an active
#   transaction." A second SET TRANSACTION in one transaction (Guide to SQL: Tutorial, "SET
#   TRANSACTION", ids_sqt_392: BEGIN WORK, SET TRANSACTION, SELECT, SET TRANSACTION -> -876;
#   "You can issue SET TRANSACTION only once for a transaction", ids_sqs_1201)
ISOLATION_SET_BY_TRANSACTION = -877  # [jcat] "Isolation Level previously set by "Set
#   Transaction"." SET ISOLATION in a transaction whose level SET TRANSACTION set (ids_sqs_1201:
#   its cursors "are guaranteed that isolation level"); when a real server sends it [guess]
READ_ONLY_TRANSACTION = -878  # [jcat] "Invalid operation for a READ-ONLY transaction." A
#   write in a transaction SET TRANSACTION READ ONLY made read-only: no INSERT, UPDATE or
#   DELETE, no CREATE/ALTER/DROP (temporary tables too), GRANT/REVOKE, UPDATE STATISTICS or
#   RENAME (SQL Syntax, SET TRANSACTION, "Access Modes", ids_sqs_1207)

# --- integrity -----------------------------------------------------------------------------------
NULL_PRIMARY_KEY = -703  # [jcat] "Primary key on table (%s) has a field with a null key value."
#   [doc] a NULL into a primary-key column that is not declared NOT NULL (an 11.70 session
#   printed in a Stack Overflow answer, question 11437845: SERIAL8 PRIMARY KEY gets -703,
#   SERIAL8 NOT NULL and plain SERIAL8 -391)
CHECK_SUBQUERY = -677  # [jcat] "Check constraint cannot contain subqueries or procedures."
#   (ids_sqs_0525; an aggregate too [inference]; features/check_rules.py)
CHECK_VARIANT_ROUTINE = -9885  # [jcat] "Variant user defined routine cannot be used in check
#   constraint or fragment expression." (a routine not declared WITH (NOT VARIANT))
NO_PARENT_KEY = -297  # [jcat] "Cannot find unique constraint or primary key on referenced table
#   (%s)." (a foreign key to columns without one; ids_sqs_0302; features/references.py)
REFERENCE_TYPES = -356  # [jcat] "Data type of the referencing and referenced columns do not
#   match." (ids_sqs_0519: same type, or an integer referencing a serial)
PRIMARY_KEY_EXISTS = -704  # [jcat] "Primary key already exists on the table." (ALTER TABLE ADD
#   CONSTRAINT PRIMARY KEY on a table that has one)
DUP_INDEX = -239  # [cat] duplicate value in a UNIQUE INDEX column; isam -100
DUP_CONSTRAINT = -268  # [peer] duplicate on PRIMARY KEY / UNIQUE constraint; isam -100
NULL_INTO_NOT_NULL = -391  # [peer] near = column name
UNIQUE_INDEX_DUPS = -371  # [cat] "Cannot create unique index on column with duplicate data."
CHECK_FAILED = -530  # [cat] "Check constraint (%s) failed."

# --- fragmentation (features/fragments.py); texts from the JDBC jar's catalogue [jcat] 4.50.12 ----
FRAGMENT_NO_FIT = -772  # [jcat] a row/key that fits no fragment (ids_sqs_0513: "rejected")
FRAGMENT_EXPR_NEEDED = -773  # [jcat] ADD/MODIFY without an expression on an expression scheme
FRAGMENT_ROUND_ROBIN_EXPR = -774  # [jcat] an expression given to a round-robin scheme
FRAGMENT_NOT_USED = -775  # [jcat] ALTER FRAGMENT naming a fragment the object lacks
FRAGMENT_MOVE = -776  # [jcat] ALTER FRAGMENT leaving rows with no fragment (ids_sqs_0068)
FRAGMENT_NOT_FRAGMENTED = -780  # [jcat] ALTER FRAGMENT ADD/DROP/MODIFY on a plain table
FRAGMENT_TEMP = -781  # [jcat] ALTER FRAGMENT on a temp table
FRAGMENT_COLUMN_DROP = -785  # [jcat] dropping a column a fragment expression names
FRAGMENT_NAME_TWICE = -858  # [jcat] a partition/dbspace name twice in one scheme
FRAGMENT_TOO_FEW = -860  # [jcat] DROP leaving one fragment (ids_sqs_0068: "you cannot ...
#   drop a fragment if the table has only two fragments"; the code is our reading of the text)
FRAGMENT_SUBQUERY = -869  # [jcat] subquery in a fragment expression (ids_sqs_0427)
FRAGMENT_UNIQUE_INDEX = -872  # [jcat] a unique index fragmented over non-key columns
#   (ids_sqs_0429); on a round-robin table [a real server's answer in a public field report]
FRAGMENT_REMAINDER_TWICE = -870  # [jcat]
# --- object modes: violations tables, FILTERING (features/object_modes.py) -------------
# [gbase] the error list of GBase 8s (an Informix derivative; its -200.. texts are Informix's
#   word for word), with the same codes and texts on sqlserverf1.com's Informix error pages.
TEMP_OBJECT_MODE = -891  # [gbase] "Temporary table objects can only be enabled." (a temp
#   table's constraint or index created DISABLED or FILTERING)
VIOLATIONS_CREATE = -895  # [gbase] START on a table that has one, a name in use, a temp or
#   catalogue table, or one that is itself a violations table (ids_adr_0804 lists the causes)
VIOLATIONS_NOT_STARTED = -896  # [gbase] a filtering object met a bad row and no violations
#   table is started; STOP on a table without one (ids_adr_0832)
VIOLATIONS_ALTER = -897  # [gbase] "Cannot modify/drop a violations/diagnostics table." (DROP
#   or ALTER TABLE of a started violations or diagnostics table: ids_adr_0826, ids_sqs_0741)
VIOLATIONS_TARGET_ALTER = -898  # [gbase] ALTER TABLE adding, dropping or modifying a column of
#   a table with a started violations table (ids_adr_0760, ids_sqs_1232)
TOO_MANY_VIOLATIONS = -899  # [gbase] one statement writes more diagnostics rows than START
#   VIOLATIONS TABLE's MAX ROWS (ids_adr_0821, ids_sqs_1216)
INTEGRITY_VIOLATIONS = -971  # [gbase] a FILTERING WITH ERROR object filtered a row
VIOLATIONS_INSERT_FROM = -973  # [gbase] INSERT into a target with a filtering object that
#   selects from its violations table (ids_adr_0815, ids_sqs_1228)
FRAGMENT_REMAINDER_LAST = -871  # [jcat]
FRAGMENT_OVERLAP = -25800  # [jcat] a LIST value in two fragments
FRAGMENT_PARTITION_NEEDED = -25802  # [jcat] LIST fragments without PARTITION names
FRAGMENT_NO_VALUES = -25803  # [jcat] LIST with no non-null, non-remainder fragment
FRAGMENT_LIST_CONSTANT = -25815  # [jcat] a LIST value that is not a constant
FRAGMENT_LAST_VALUES = -25817  # [jcat] DROP/DETACH of a LIST scheme's last value fragment
FRAGMENT_LIST_ORDER = -25823  # [jcat] BEFORE/AFTER in ADD on a LIST scheme
FRAGMENT_NULL_TWICE = -25826  # [jcat] two NULL fragments in a LIST scheme
FK_NO_PARENT = -691  # [cat] "Missing key in referenced table for referential constraint (%s)."
FK_CHILD_EXISTS = -692  # [cat] "Key value for constraint (%s) is still being referenced."
SUBQUERY_ROWS = -284  # [cat] "A subquery has returned not exactly one row."

# --- OLAP window expressions (sql/olap.py); texts from the JDBC jar's catalogue [jcat] 4.50.12 ----
OLAP_FRAME_NEEDS_ORDER = -25850  # [jcat] a window frame without a window ORDER clause
OLAP_FRAME_VALUE = -25851  # [jcat] a frame offset that is no unsigned integer; a lone FOLLOWING
OLAP_FRAME_BETWEEN = -25852  # [jcat] BETWEEN bounds out of order (start after end)
OLAP_NEEDS_ORDER = -25853  # [jcat] NTILE/LEAD/LAG/RANK/DENSE_RANK/... without window ORDER
OLAP_NO_FRAME = -25854  # [jcat] NTILE/LEAD/LAG/ranking/ROW_NUMBER with a window frame
OLAP_OPTION = -25855  # [jcat] IGNORE/RESPECT NULLS on an aggregate [guess: which option]
OLAP_CONTEXT = -25856  # [jcat] an OLAP expression in WHERE/GROUP BY/HAVING or nested
OLAP_DISTINCT_ORDER = -25858  # [jcat] DISTINCT aggregate OVER (ORDER BY ... / frame)
OLAP_NTILE_ARG = -25859  # [jcat] NTILE(0), NTILE of no unsigned integer literal
OLAP_OFFSET = -25860  # [jcat] LEAD/LAG offset that is no unsigned integer literal
OLAP_DEFAULT_TYPE = -25861  # [jcat] LEAD/LAG default that cannot take the expression's type
OLAP_RATIO_ARG = -25862  # [jcat] RATIO_TO_REPORT of a non-numeric argument (ids_sqs_2595)

# --- hierarchical queries (sql/hierarchy.py); texts from the JDBC jar catalogue [jcat] 4.50.12
CONNECT_BY_LOOP = -26079  # [jcat] "CONNECT BY query resulted in a loop/cycle." (no NOCYCLE)
CONNECT_BY_ISCYCLE = -26082  # [jcat] "CONNECT_BY_ISCYCLE is used without the NOCYCLE keyword."
CONNECT_BY_JOIN = -26085  # [jcat] "You cannot have a CONNECT BY query on a join of two or
#                           more tables."

# --- locks (SQLite has one writer per database file; see session.py) ------------------------------
LOCK_DELETE = -240  # [cat] "Could not delete a row."
LOCK_OPEN_TABLE = -242  # [cat] "Could not open database table (%s)." (DDL blocked)
LOCK_READ = -244  # [cat] "Could not do a physical-order read to fetch next row."
LOCK_INSERT = -271  # [cat] "Could not insert new row into the table."
LOCK_UPDATE = -346  # [cat] "Could not update a row in the table."
LOCK_TABLE_MODE = -289  # [jcat] "Cannot lock table (%s) in requested mode." (LOCK TABLE met a lock)
UNLOCK_IN_TXN = -327  # [jcat] "Cannot unlock table (%s) within a transaction."
LOCK_TABLE_NO_TXN = -524  # [jcat] "Lock table can only be used within a transaction."

# --- conversions and arithmetic ------------------------------------------------------------------
# ids_sqs_1576: SUM or AVG of the difference of two DATE values "returns error -1201"; the
# catalogue's -1201 is the small-DECIMAL conversion error (a translated catalogue: "value too
# small for the DECIMAL data type"); the page names the code for this statement.
DATE_DIFF_AGGREGATE = -1201
DIVIDE_BY_ZERO = -1202  # [cat] "An attempt was made to divide by zero."
BAD_YEAR = -1204  # [cat] "Invalid year in date."
BAD_MONTH = -1205  # [cat] "Invalid month in date."
BAD_DAY = -1206  # [cat] "Invalid day in date."
# A number into a character type shorter than its text: Guide to SQL: Reference, "Converting
# Between Number and Character" (ids_sqr_169: "If the character column is not large enough
# to receive the number, however, the database server generates an error ... it cannot
# complete the ALTER TABLE statement or cast"); the page names no code, the catalogue's text
# fits (thirty-third session; it was truncated silently).
NUMBER_TOO_WIDE = -1207  # [jcat] "Converted value does not fit into the allotted space"
CHAR_TO_NUM = -1213  # [cat] "A character to numeric conversion process failed."
SMALLINT_RANGE = -1214  # [cat] "Value too large to fit in a SMALLINT."
INTEGER_RANGE = -1215  # [cat] "Value too large to fit in an INTEGER."
STRING_TO_DATE = -1218  # [cat] "String to date conversion error."
DECIMAL_RANGE = -1226  # [cat] "Decimal or money value exceeds maximum precision."
NO_CONVERSION = -1260  # [cat] "It is not possible to convert between the specified types."
DT_FIRST_FIELD = -1261  # [cat] "Too many digits in the first field of datetime or interval."
DT_NON_NUMERIC = -1262  # [cat] "Non-numeric character in datetime or interval."
DT_BAD_FIELD = -1263  # [cat] "A field in a datetime or interval value is incorrect ..."
DT_EXTRA = -1264  # [cat] "Extra characters at the end of a datetime or interval."
DT_OVERFLOW = -1265  # [cat] "Overflow occurred on a datetime or interval operation."
DT_INCOMPATIBLE = -1266  # [cat] "Intervals or Datetimes are incompatible for the operation."
DT_RANGE = -1267  # [cat] "The result of a datetime computation is out of range."
DATETIME_AGGREGATE = -561  # [jcat] "Sums and averages cannot be computed on datetime values."
STRING_TOO_LONG = -1279  # [cat] "Value exceeds string column length." (ANSI databases only)
INT8_RANGE = -1284  # [guess] "Value will not fit in a BIGINT/INT8." (-1284 per the catalogue)

# --- wire session (server/handlers.py: statements and cursors addressed by SQ_ID) ---------------
NO_STATEMENT = -267  # [peer] a stale CLOSE (no such statement) gives -267 on real servers
SELECT_NEEDS_CURSOR = -260  # [peer] SQ_EXECUTE of a statement that needs a cursor gives -260
FETCH_UNOPENED = -400  # [cat] "Fetch attempted on unopen cursor."
CURSOR_NOT_OPEN = -259  # [jcat] "Cursor not open." (WHERE CURRENT OF a cursor not open)
CURSOR_BUSY = -285  # [peer] [jcat] "Invalid cursor received by sqlexec.": OPEN of a statement
#   whose cursor is open (informix-driver CHANGELOG 2026.09.02, test_statement_slot.py)
NO_CURRENT_ROW = -266  # [jcat] "There is no current row for UPDATE/DELETE cursor."
NOT_UPDATE_CURSOR = -290  # [jcat] "Cursor not declared with FOR UPDATE clause."
NOT_UPDATE_OF = -364  # [jcat] "Column (%s) not declared for UPDATE OF."
SCROLL_FOR_UPDATE = -526  # [peer] a FOR UPDATE scroll cursor fails at OPEN with -526

# --- smart large objects (lobstore.py, lo_functions.py) ----------------------------------------
LO_ERROR = -9810  # [peer] ifx_lo_close(-1) by fast path gives -9810; [jcat]
BAD_FILENAME = -9815  # [jcat] "Invalid filename specification (%s)." (FILETOBLOB/LOTOFILE)
NOT_LO_COLUMN = -9819  # [jcat] "Column (%s) incorrect type for storage in sbspace."
NO_SBSPACE = -9820  # [jcat] "Sbspace (%s) does not exist." (PUT ... IN, ifx_lo_spec)

# --- SPL routines and triggers (spl/, triggers.py) ---------------------------------------------
ROUTINE_AMBIGUOUS = -9700  # [jcat] "Routine (%s) ambiguous - more than one routine resolves
#   to given signature." (an overloaded name given without signature or specific name)
VAR_UNDEFINED = -696  # [cat] "Variable (%s) has undefined value."
FUNCTION_ROWS = -686  # [cat] "Function (%s) has returned more than one row."
SYSTEM_FAILED = -668  # [cat] "System command cannot be executed." (SYSTEM is refused)
CASE_NOT_DEFINED = -26062  # [jcat] SPL CASE with no matching WHEN and no ELSE (sqs CASE page)
# Dynamic SQL in SPL (spl/dynamic.py; ids_sqs_0117, ids_sqs_0927): the catalogue's texts.
DYN_NULL_TEXT = -26051  # [jcat] "EXECUTE IMMEDIATE and PREPARE cannot take NULL statement"
DYN_OPEN_TWICE = -26052  # [jcat] "OPEN attempted on already opened cursor (%s)"
DYN_NOT_OPEN = -26053  # [jcat] "FETCH or CLOSE cannot reference cursor (%s) that is not opened"
DYN_FREE_OPEN = -26054  # [jcat] "Cannot FREE a cursor (%s) that is in use"
DYN_UNDEFINED = -26055  # [jcat] "Either statement-id or cursor name (%s) is not defined"
DYN_FUNCTION_HOLD = -26056  # [jcat] "Function cursor (%s) in SPL cannot have WITH HOLD option"
DYN_IN_USE = -26057  # [jcat] "Either statement-id or cursor (%s) is already in use"
DYN_SEVERAL = -26058  # [jcat] "... PREPARE in SPL cannot allow multiple SQL statements"
DYN_TEXT_TYPE = -26059  # [jcat] "Unsupported data type in EXECUTE IMMEDIATE or PREPARE ..."
DYN_CANNOT_PREPARE = -26064  # [jcat] "... a statement cannot be prepared (%s)." [guess: that
#   a PREPARE of another statement than SELECT / EXECUTE FUNCTION / EXECUTE PROCEDURE, or of
#   a SELECT with INTO or FOR UPDATE (ids_sqs_0927's restrictions), gets this code]
NOT_SCROLL_CURSOR = -482  # [jcat] "Invalid operation on a non-SCROLL cursor." (FETCH PRIOR …
#   of an SPL cursor: "In SPL routines, all cursors are sequential cursors", ids_sqs_0119)
NESTING_TOO_DEEP = -722  # [guess] "Out of stack space." (routine calls nested too deeply)
NOT_IN_SPL = -675  # [jcat] "Illegal SQL statement in SPL routine." (-744 until the twenty-first
#   SPL round: the catalogue's -744 is "Illegal SQL statement in trigger."; ids_sqs_1755 names
#   -675 for the statements an SPL routine may not run)
# Misuse of SPL, each by its text in the JDBC jar's message catalogue (sql_en_US.properties)
# and the Guide to SQL: Syntax page that states the rule (docs/SERVER.md, SPL, eighth round).
FOR_RANGE_NULL = -443  # [jcat] "The range specified in the FOR loop cannot have a NULL value"
LOCAL_DEFAULT = -652  # [jcat] "Local variables do not allow default values."
GLOBAL_LIKE = -653  # [jcat] "Variables declared as LIKE cannot be global."
RETURN_COUNT = -655  # [jcat] "RETURN value count does not match procedure declaration."
RETURN_NOT_DECLARED = -656  # [jcat] "Routine is not declared to return values."
GLOBAL_NEEDS_DEFAULT = -658  # [jcat] "Variables declared as GLOBAL require a default value."
LOOP_VAR_MODIFIED = -660  # [jcat] "Loop variable(%s) cannot be modified."
LOOP_VAR_TWICE = -662  # [jcat] "Loop variable(%s) specified more than once."
LOOP_VAR_NOT_INTEGER = -666  # [jcat] "Variable(%s) must be declared INTEGER or SMALLINT."
VAR_REDECLARED = -669  # [jcat] "Variable(%s) redeclared."
VAR_SERIAL = -670  # [jcat] "Variable(%s) declared as SERIAL type."
STEP_NO_TRAVERSE = -683  # [jcat] "Specified STEP expression will not traverse RANGE."
STEP_ZERO = -697  # [jcat] "STEP expression evaluated to ZERO."
LOOP_VAR_GLOBAL = -719  # [jcat] "Loop variable(%s) cannot be declared GLOBAL."
TRACE_NO_DEBUG_FILE = -687  # [jcat] "Set debug file before tracing SPL routines."
DUPLICATE_ARGUMENT = -671  # [jcat] "Routine invocation(%s) has duplicate parameter name."
NOT_A_PARAMETER = -695  # [jcat] "Argument is not a parameter of procedure (%s)."
JUMP_OUTSIDE_LOOP = -596  # [jcat] "Bad EXIT/CONTINUE statement. Not within a %s loop."
VAR_NAMED_NULL = -947  # [jcat] "Declaration of an SPL variable named 'null' conflicts with
#   SQL NULL value."
USER_ERROR = -746  # [cat] "%s": RAISE EXCEPTION's message text, verbatim
TRIGGER_TABLE_REF = -747  # [cat] "Table or column matches object referenced in triggering stmt."
TRIGGER_CASCADE = -748  # [cat] "Exceeded limit on maximum number of cascaded triggers." (61)
# CREATE TRIGGER's own refusals (twenty-first SPL round; docs/SERVER.md "Triggers"):
TRIGGER_ON_TEMP = -548  # [jcat] "No referential constraint or trigger allowed on a TEMP table."
ALTER_TEMP = -532  # [jcat] "Cannot alter temporary table (%s)." (ALTER TABLE of a temp table)
VIEW_ON_TEMP = -337  # [jcat] "Cannot create view on temporary table (%s)."
TEMP_INDEX_ALTER = -884  # [jcat] "Cannot alter an index on a temporary table." (ALTER INDEX)
REFERENCING_NEEDS_ROW = -730  # [jcat] "Cannot specify REFERENCING if trigger does not have
#   FOR EACH ROW."
CORRELATION_MISUSE = -732  # [jcat] "Incorrect use of old or new values correlation name inside
#   trigger." (a correlation name in a BEFORE or AFTER action: our reading)
INSTEAD_EXECUTE_INTO = -19823  # [jcat] "Cannot use EXECUTE PROCEDURE INTO with the INSTEAD OF
#   trigger."
INSTEAD_BEFORE_AFTER = -19824  # [jcat] "Cannot use BEFORE or AFTER action with the INSTEAD OF
#   trigger."
INSTEAD_WHEN = -19825  # [jcat] "Cannot use WHEN clause if INSTEAD OF trigger is defined."
INSTEAD_SELECT = -19826  # [jcat] "Cannot create INSTEAD OF trigger for a select event."
INSTEAD_ON_TABLE = -19827  # [jcat] "Cannot create an INSTEAD OF trigger on a table (%s)."
SAVEPOINT_IN_TRIGGER = -26077  # [jcat] "Savepoint statements are disallowed inside triggers."
#   (a routine a triggered action calls; RELEASE SAVEPOINT, ids_sqs_2008)
OBJECT_EXISTS = -743  # [guess] "Object (%s) already exists in database." (a trigger name)
NO_OBJECT = -634  # [guess] "Object (%s) does not exist in database." (DROP TRIGGER)

# --- server limits (server/defences.py; docs/SERVER.md "Limits") -------------------------------
MEMORY = -208  # [cat] "Memory allocation failed during query processing." (max_blob_bytes);
#   [peer] also CURNAME on a released statement (informix-driver 2026.09.02)
INTERRUPTED = -213  # [cat] "Statement interrupted by user." (statement_timeout)
TOO_MANY_SESSIONS = -25571  # [doc] "Cannot create a user thread.": LIMITNUMSESSIONS reached

# --- ISAM codes (second number of SQ_ERR) ---------------------------------------------------------
ISAM_DUPLICATE = -100  # [cat] "ISAM error: duplicate value for a record with unique key."
ISAM_LOCKED_RECORD = -107  # [cat] "ISAM error: record is locked." (NOT WAIT conflict)
ISAM_NOT_FOUND = -111  # [cat] "ISAM error: no record found." (with -206, -329)
ISAM_FILE_LOCKED = -113  # [cat] "ISAM error: the file is locked."
ISAM_LOCK_TIMEOUT = -154  # [cat] "ISAM error: Lock Timeout Expired." (WAIT n expired)
ISAM_DEADLOCK = -143  # [jcat] "ISAM error: deadlock detected" (isam_en_US.properties)
# With -9810 (sblob_en_US.properties [jcat]; which code a real server picks in each case is
# [guess], except where noted):
ISAM_LO_BAD_FD = -12014  # [jcat] "Cannot find entry in lofd table." (stale or closed LO fd)
ISAM_LO_BAD_BUFFER = -12034  # [jcat] "Invalid buffer size." (a negative read/write size)
ISAM_LO_BAD_SEEK = -12037  # [jcat] "Invalid seek position." (before 0 or past 4 TB)
ISAM_LO_BAD_WHENCE = -12039  # [jcat] "Invalid whence value for seek."
ISAM_LO_BAD_TRUNCATE = -12040  # [jcat] "Invalid truncate value for size."
ISAM_LO_TOO_BIG = -12041  # [jcat] "Size of smart large object or buffer is too big."
ISAM_LO_NOT_READABLE = -12051  # [jcat] "Smart large object was not opened for read."
ISAM_LO_NOT_WRITABLE = -12052  # [jcat] "Smart large object was not opened for write."
ISAM_LO_BAD_FLAGS = -12086  # [jcat] "open: invalid open flags detected at ... open time."
ISAM_LO_DELETED = -12097  # [jcat] "open: Bad smart-large-object address. Object might have
#                            been deleted." (a locator whose object is gone)
ISAM_LO_BAD_HANDLE = -12116  # [jcat] "... header is corrupt or an invalid LO handle was
#                               encountered." (bytes that are no locator)

MESSAGES: dict[int, str] = {
    CONNECT_BY_LOOP: "CONNECT BY query resulted in a loop/cycle.",
    CONNECT_BY_ISCYCLE: "CONNECT_BY_ISCYCLE is used without the NOCYCLE keyword.",
    CONNECT_BY_JOIN: "You cannot have a CONNECT BY query on a join of two or more tables.",
    OLAP_FRAME_NEEDS_ORDER: "The window frame extent specification requires window order clause.",
    OLAP_FRAME_VALUE: "The window frame extent value specification are not correct.",
    OLAP_FRAME_BETWEEN: "The window frame extent BETWEEN options are not valid.",
    OLAP_NEEDS_ORDER: "The ntile, lead, lag and ranking window functions require window order.",
    OLAP_NO_FRAME: "The ntile, lead, lag, ranking and row_number window functions can not have "
    "window frame extent.",
    OLAP_OPTION: "The option specified is not supported with window aggregates.",
    OLAP_CONTEXT: "Invalid usage of window aggregate in this context.",
    OLAP_DISTINCT_ORDER: "DISTINCT aggregate can not have ORDER BY clause or window frame extent.",
    OLAP_NTILE_ARG: "The argument to NTILE window function is invalid.",
    OLAP_OFFSET: "The offset of the LEAD, LAG window function is invalid.",
    OLAP_DEFAULT_TYPE: "The types of default expression and expression of LEAD, LAG are not "
    "compatible.",
    OLAP_RATIO_ARG: "The argument to RATIO_TO_REPORT window function is invalid.",
    SYNTAX: "A syntax error has occurred.",
    STATEMENT_TOO_LONG: "Statement length exceeds maximum.",
    TOO_MANY_STATEMENTS: "System limit on maximum number of statements exceeded, maximum is %s.",
    MEMORY: "Memory allocation failed during query processing.",
    INTERRUPTED: "Statement interrupted by user.",
    TOO_MANY_SESSIONS: "Cannot create a user thread.",
    PARSE_STACK: "Stack overflow occurred during statement parse.",
    BAD_FUNCTION_ARG: "Invalid argument passed to system function(%s).",
    NO_STATEMENT: "The cursor or statement is not available.",
    SELECT_NEEDS_CURSOR: "Cannot execute a SELECT statement that is PREPAREd - must use cursor.",
    FETCH_UNOPENED: "Fetch attempted on unopen cursor.",
    CURSOR_NOT_OPEN: "Cursor not open.",
    CURSOR_BUSY: "Invalid cursor received by sqlexec.",
    NO_CURRENT_ROW: "There is no current row for UPDATE/DELETE cursor.",
    NOT_UPDATE_CURSOR: "Cursor not declared with FOR UPDATE clause.",
    NOT_UPDATE_OF: "Column (%s) not declared for UPDATE OF.",
    SCROLL_FOR_UPDATE: "Updates are not allowed on a scroll cursor.",
    ILLEGAL_CHAR: "An illegal character has been found in the statement.",
    NO_TABLE: "The specified table (%s) is not in the database.",
    NO_COLUMN: "Column (%s) not found in any table in the query (or SLV is undefined).",
    INSERT_COUNT: "Number of columns in INSERT does not match number of VALUES.",
    UNION_COLUMNS: ("The statement failed because you must have the same number of selected "
                    "columns in each UNION, INTERSECT, or MINUS query."),
    UNION_TYPES: ("The statement failed because corresponding column data types must be "
                  "compatible for each UNION, INTERSECT, or MINUS query."),
    CASE_TYPES: ("Corresponding data types must be compatible in CASE expression or DECODE "
                 "function."),
    VIEW_COLUMNS: "Same number of columns must be specified for view and select clause.",
    HOSTVAR_COUNT: "Too many or too few host variables given.",
    UNMATCHED_QUOTE: "Found a quote for which there is no matching quote.",
    NOT_IN_GROUP: "The column (%s) must be in the GROUP BY list.",
    AMBIGUOUS_COLUMN: "Ambiguous column (%s).",
    ROWID_NOT_ALLOWED: ("The statement failed because you cannot use ROWID for views with union, "
                        "intersect, minus, aggregates, group by, multiple tables, or derived "
                        "tables."),
    COLUMN_EXISTS: "Column (%s) already exists in table.",
    SERIAL_TWICE: "Can have only one column of type SERIAL.",
    GRANT_PUBLIC_WITH_GRANT: "Cannot grant permission to public with grant option.",
    NO_EXECUTE: "Execute privilege denied on procedure (%s).",
    SLV_OUTSIDE_WHERE: (
        "SLV (%s) cannot be produced from a UDR called from outside the WHERE clause."),
    SLV_IN_CALL: "SLV cannot be an argument to a function invoked explicitly by EXECUTE or CALL.",
    SLV_TWICE: "Statement Local Variable (%s) has already been defined.",
    SLV_OUT_OF_SCOPE: "SLV (%s) has no producer-UDR; or is outside the scope of the producer-UDR.",
    SLV_IN_FROM: "SLV's not allowed in the from clause.",
    OUT_ARGUMENT: ("Argument must be a Statement Local Variable or SPL variable or argument "
                   "for an OUT or INOUT parameter."),
    NO_ROUTINE: "Routine (%s) can not be resolved.",
    ROUTINE_EXISTS: "Cannot create routine (%s): a routine with that name exists.",
    TYPE_NOT_FOUND: "Type (%s) not found.",
    ROW_TYPE_EXISTS: "Named row type (%s) already exists in database.",
    ROW_TYPE_IN_USE: "Cannot drop named row type (%s): still in use.",
    ROW_TYPE_NOT_FOUND: "Named row type (%s) not found.",
    DROP_INHERITED: "Cannot drop inherited object (%s).",
    UNDER_ON_BASE_TYPE: "Grant/Revoke under on base types disallowed.",
    UNDER_ON_DISTINCT: "Grant/Revoke under on distinct of non-row types disallowed.",
    UNDER_ON_UNTYPED: "Grant/Revoke UNDER on untyped table is not allowed.",
    NO_UNDER: "UNDER privilege required to create subtype/subtable.",
    SUBTABLE_TYPE: "Subtable's type must be a subtype of supertable's type.",
    TYPE_TWICE_IN_HIERARCHY: "Type of a table must be unique within a table hierarchy.",
    DISTINCT_TYPE_EXISTS: "Distinct type (%s) already exists in database.",
    TYPE_IN_USE: "Cannot drop type (%s): still in use.",
    DROP_TYPE_KIND: "Drop type can only drop opaque type or distinct type.",
    ROW_FIELD_COUNT: "Incorrect number of fields in the ROW Type.",
    NULL_IN_COLLECTION: "Insertion of NULLs into a collection disallowed.",
    COLLECTION_REQUIRED: "A collection data type must be supplied within this context.",
    DERIVED_COLUMN_COUNT: (
        "The number of derived columns do not match the actual number of columns."),
    COLLECTION_TYPE_UNKNOWN: (
        "Cannot determine the data type of a collection in the given expression."),
    READ_ONLY_COLLECTION: "Cannot modify a read-only collection",
    NULL_COLLECTION: "Manipulation of NULL collection disallowed.",
    HOSTVAR_TYPE_UNKNOWN: "Cannot determine host variable type during bind.",
    NOT_IMPLEMENTED: "Not implemented yet.",
    CANNOT_ADD_INDEX: "Cannot add index.",
    FOR_UPDATE_NOT_SIMPLE: "Cursor must be on simple SELECT for FOR UPDATE.",
    SCALE_EXCEEDS_PRECISION: "The scale exceeds the maximum precision specified.",
    CHAR_SIZE: "Character column size is too big.",
    VARCHAR_SIZE: "Maximum varchar size has been exceeded.",
    VARCHAR_RESERVE: "Reserved column size > maximum column size (varchar).",
    LVARCHAR_SIZE: "LVARCHAR column size exceeds 32739.",
    BAD_QUALIFIER: "Invalid datetime or interval qualifier.",
    ILLEGAL_FLOAT: "An illegal floating point number has been found in the statement.",
    ROWSIZE_LIMIT: "The operation causes a rowsize to exceed the allowable limit (32767).",
    OUTPUT_ROWSIZE: "Maximum output rowsize (32767) exceeded.",
    ESCAPE_LENGTH: "ESCAPE character must be only one byte.",
    FIRST_CONTEXT: 'Cannot use "first", "limit" or "skip" in this context.',
    BLOB_INDEX: "Index not allowed on TEXT or BYTE columns.",
    BLOB_GROUP_BY: 'Blobs are not allowed in the "group by" clause.',
    BLOB_DISTINCT: 'Blobs are not allowed in the "distinct" clause.',
    BLOB_ORDER_BY: 'Blobs are not allowed in the "order by" clause.',
    BLOB_EXPRESSION: "Blobs are not allowed in this expression.",
    VALUE_TYPE_MISMATCH: "Value does not match the type of column (%s).",
    NO_CAST: "No cast from %s.",
    CAST_FUNCTION_MISSING: "Cast function (%s) does not exist.",
    CAST_NOT_FOUND: "Cast does not exist in database.",
    CAST_INCOMPATIBLE: "Cannot create cast between incompatible types.",
    BLOB_SET_OPERATION: ("The statement failed because binary large objects are not allowed in "
                         "the Union, Intersect, or Minus queries."),
    COMPOSITE_ORDERED: ("The statement failed becuase row-type or collection columns were "
                        "referenced in ORDER BY, DISTINCT, UNIQUE, INDEX, UNION, INTERSECT, or "
                        "MINUS specifications, or in primary key, foreign key, or unique "
                        "constraints."),
    COLLECTION_GROUP_BY: 'Collections are not allowed in the "group by" clause.',
    COLLECTION_INDEX: "Index not allowed on collections.",
    COLLECTION_ELEMENT_TYPE: ("Byte, Text, Serial, Serial8 or Bigserial datatypes in collection "
                              "types not allowed."),
    ROW_FIELD_TYPE: ("Columns of a row type may not contain fields of type text, byte, serial, "
                     "serial8 or bigserial."),
    ROW_FIELD_NAMES: "Can not have duplicate/null field names in unnamed row types.",
    AGGREGATE_IN_ROW: "Aggregate within a ROW in a SELECT projection list is not allowed.",
    NO_SELECT: "No SELECT permission for (%s).",
    NO_UPDATE: "No UPDATE permission for (%s).",
    NO_DELETE: "No DELETE permission for (%s).",
    TRUNCATE_NEEDS_ALTER: "Truncating a table with delete trigger requires ALTER privilege.",
    VIEW_NOT_ALTERABLE: "Cannot Alter a view, Rename a view or Create a trigger on a view (%s).",
    RENAME_CATALOG: "Cannot rename system catalog.",
    RENAME_CATALOG_COLUMN: "Cannot rename column in system catalog.",
    RENAME_TEMP: "Cannot rename a temporary table.",
    RENAME_TEMP_COLUMN: "Cannot rename a column in a temporary table.",
    SYNONYM_FOR_TEMP: "Cannot create synonym for temporary table (%s).",
    PDQ_PRIORITY_VALUE: "Invalid PDQ priority value specified.",
    FILE_NAME_EMPTY: ("The file name in SET EXPLAIN FILE or SET DEBUG FILE must be a non-null "
                      "string."),
    NO_INSERT: "No INSERT permission for (%s).",
    NO_CONNECT: "No connect permission.",
    NO_RESOURCE: "No resource permission.",
    NO_DBA: "No DBA permission.",
    NO_ROLE: "Role does not exist.",
    ROLE_NOT_GRANTED: "No privilege to set to the role.",
    ROLE_EXISTS: "Role name already exists as a user or role.",
    CURRVAL_UNDEFINED: "Sequence (%s) CURRVAL is not yet defined in this session.",
    SEQUENCE_EXHAUSTED: "Sequence (%s) exceeds its MAXVALUE.",
    SEQUENCE_BELOW_MIN: "Sequence (%s) goes below its MINVALUE.",
    SEQUENCE_OPTIONS: "A Sequence object definition value is invalid or out of range.",
    SEQUENCE_ZERO_STEP: "INCREMENT 0 is not allowed in sequences.",
    SEQUENCE_RESTART_RANGE: ("Cannot RESTART the sequence at a value less than MINVALUE or "
                             "greater than MAXVALUE."),
    SEQUENCE_NO_OPTIONS: "No options specified for ALTER SEQUENCE.",
    SEQUENCE_OPTION_TWICE: "Duplicate or conflicting (%s) specification in sequence definition.",
    NO_SEQUENCE: "The specified sequence object (%s) is not in the database.",
    RENAME_BY_SYNONYM: "Cannot rename a table using a synonym.",
    TABLE_BY_SYNONYM: ("Cannot alter or truncate a table or drop a table or view using a "
                       "synonym."),
    DROP_LAST_COLUMN: "Cannot drop last column.",
    GRANT_TO_SELF: "Cannot grant permission to self.",
    GRANT_ON_TEMP: "Cannot grant permission on temporary table.",
    DEFAULT_NULL_NOT_NULL: "Cannot specify column to be not null when the default value is null.",
    DEFAULT_ON_SERIAL: "Cannot specify default value for SERIAL column.",
    DEFAULT_ON_LOB: "Cannot specify non-null default value for blob column.",
    DEFAULT_INVALID: "Invalid default value for column/variable (%s).",
    INDEX_ON_CATALOG: "Cannot create index for system catalog (%s).",
    DEFAULT_NULL_PRIMARY_KEY: "Default value of the primary key column %s is NULL.",
    INDEX_TOO_MANY_PARTS: "The total size of the index is too large or too many parts in index.",
    DUPLICATE_FROM_NAME: "Duplicate table name (%s) in the FROM clause.",
    INDEX_SAME_COLUMNS: "Index already exists on the column (or on the set of columns).",
    FUNC_KEY_ARG_COUNT: "Invalid number of arguments for functional key.",
    FUNC_KEY_FUNCTION: "Invalid function (%s) used in a functional key.",
    FUNC_KEY_VARIANT: "Functional key part cannot use a variant function (%s)",
    FUNC_KEY_ARGUMENT: "The functional key argument is invalid.",
    ROUTINE_IN_USE: "Cannot drop/modify procedure (%s). It is currently in use.",
    CHECK_OPTION_SET_VIEW: ("The statement failed because the WITH CHECK OPTION keywords are "
                            "not supported in UNION, INTERSECT, or MINUS views."),
    SEQUENCE_NOT_HERE: "Sequence object cannot be used here.",
    SEQUENCE_DISTINCT: "Distinct clause is not allowed on a sequence.",
    NO_USAGE: "No usage privilege.",
    NO_TYPE_USAGE: "No usage privilege on data type (%s).",
    SELECT_NUMBER_TOO_BIG: "ORDER BY or GROUP BY column number is too big.",
    ORDER_BY_NUMBER_ONLY: "Can only use column number in ORDER BY clause with UNION.",
    ORDER_KEY_NOT_LISTED: "ORDER BY column or expression must be in SELECT list in this context.",
    ORDER_COLUMN_NOT_LISTED: "ORDER BY column (%s) must be in SELECT list.",
    MODIFIED_IN_SUBQUERY: "Cannot modify table or view used in subquery.",
    INSERT_COLUMN_TWICE: "Column specified more than once in the INSERT list.",
    HAVING_NOT_GROUPED: "HAVING can only have expressions with aggregates or columns in GROUP BY "
                        "clause.",
    VIRTUAL_COLUMN_NAME: "Virtual column must have explicit name.",
    OUTER_WITH_ANSI_JOIN: "Informix OUTER JOIN and ANSI JOIN in the same query block.",
    TWO_SIDED_OUTER: "A condition in the where clause results in a two-sided outer join.",
    TABLE_EXISTS: "Table (%s) already exists in database.",
    INDEX_EXISTS: "Index (%s) already exists in database.",
    NO_INDEX: "Index (%s) does not exist in database.",
    COLUMN_TWICE: "Cannot specify a column more than once in a constraint, trigger, or index.",
    TEMP_EXISTS: "Temp table (%s) already exists in session.",
    NON_SIMPLE_VIEW: "Cannot modify non simple view.",
    VIEW_CHECK: "Data value out of range.",
    NO_CONSTRAINT: "Unable to find CONSTRAINT (%s).",
    TABLE_CHANGED: "Table (%s) has been dropped, altered, or renamed.",
    NO_DATABASE: "Database not found or no system permission.",
    CANNOT_CREATE_DB: "Cannot create or rename the database.",
    NO_DB_SELECTED: "Database not selected yet.",
    EXPLICIT_DB: "Cannot use database commands in an explicit database connection.",
    DB_IN_USE: "Database is currently opened by another user.",
    EXTERNAL_NO_LOG: "Cannot reference an external database without logging.",
    EXTERNAL_LOGGED: "Cannot reference an external database with logging.",
    EXTERNAL_ANSI: "Cannot reference an external ANSI database.",
    EXTERNAL_NOT_ANSI: "Cannot reference an external non-ANSI database.",
    DB_OPEN_DROP: "Cannot drop or rename the current database or any open database.",
    NOT_IN_TRANSACTION: "Not in transaction.",
    NO_TRANSACTIONS: "Transaction not available.",
    ALREADY_IN_TRANSACTION: "Already in transaction.",
    SET_TRANSACTION_ACTIVE: 'Cannot issue "Set Transaction" in an active transaction.',
    ISOLATION_SET_BY_TRANSACTION: 'Isolation Level previously set by "Set Transaction".',
    DUP_INDEX: "Could not insert new row - duplicate value in a UNIQUE INDEX column (%s).",
    DUP_CONSTRAINT: "Unique constraint (%s) violated.",
    NULL_INTO_NOT_NULL: "Cannot insert a null into column (%s).",
    UNIQUE_INDEX_DUPS: "Cannot create unique index on column with duplicate data.",
    CHECK_FAILED: "Check constraint (%s) failed.",
    FRAGMENT_NO_FIT: "Record/Key doesn't qualify for any table/index fragment.",
    FRAGMENT_EXPR_NEEDED: "Expression required for new fragment.",
    FRAGMENT_ROUND_ROBIN_EXPR: "Cannot specify fragment expressions with a round robin "
    "fragmentation.",
    FRAGMENT_NOT_USED: "Fragment partition (%s) not used by table/index.",
    FRAGMENT_MOVE: "Alter fragment error: unable to move row(s) to new fragmentation scheme.",
    FRAGMENT_NOT_FRAGMENTED: "Table/Index is not fragmented.",
    FRAGMENT_TEMP: "Cannot alter fragmentation on a temp table.",
    FRAGMENT_COLUMN_DROP: "Cannot drop column because of table or index fragmentation.",
    FRAGMENT_NAME_TWICE: "Cannot specify the same partition/space name twice in a "
    "fragmentation specification.",
    FRAGMENT_TOO_FEW: "The fragmented object definition does not specify enough fragments.",
    FRAGMENT_SUBQUERY: "Subqueries and procedures are not allowed in fragmentation "
    "expressions.",
    FRAGMENT_UNIQUE_INDEX: "Invalid fragment strategy or expression for the unique index.",
    FRAGMENT_REMAINDER_TWICE: "Cannot specify duplicate remainder fragments.",
    TEMP_OBJECT_MODE: "Temporary table objects can only be enabled.",
    VIOLATIONS_CREATE: "Cannot create violations/diagnostics table.",
    VIOLATIONS_NOT_STARTED: "Violations table is not started for the target table.",
    VIOLATIONS_ALTER: "Cannot modify/drop a violations/diagnostics table.",
    VIOLATIONS_TARGET_ALTER: "Cannot alter a table which has associated violations/diagnostics "
                             "tables.",
    TOO_MANY_VIOLATIONS: "Too many violations.",
    INTEGRITY_VIOLATIONS: "Integrity violations detected.",
    VIOLATIONS_INSERT_FROM: "Cannot insert from the violations table to the target table.",
    FRAGMENT_REMAINDER_LAST: "Remainder fragment must be specified last.",
    FRAGMENT_OVERLAP: "Cannot specify overlapping fragment expressions for interval or list "
    "fragmentation.",
    FRAGMENT_PARTITION_NEEDED: "The PARTITION clause is mandatory for interval and list "
    "fragmentation.",
    FRAGMENT_NO_VALUES: "Interval or list fragmentation must have at least one non-null, "
    "non-remainder fragment.",
    FRAGMENT_LIST_CONSTANT: "The expression defining the list of values for a fragment in "
    "list fragmentation must be a constant.",
    FRAGMENT_NULL_TWICE: "Cannot specify more than one null fragment for interval or list "
    "fragmentation.",
    FRAGMENT_LAST_VALUES: "Cannot drop or detach the only remaining non-null, non-remainder "
    "fragment.",
    FRAGMENT_LIST_ORDER: "Cannot specify BEFORE or AFTER clause while adding or attaching a "
    "fragment.",
    FK_NO_PARENT: "Missing key in referenced table for referential constraint (%s).",
    FK_CHILD_EXISTS: "Key value for constraint (%s) is still being referenced.",
    SUBQUERY_ROWS: "A subquery has returned not exactly one row.",
    LOCK_DELETE: "Could not delete a row.",
    LOCK_OPEN_TABLE: "Could not open database table (%s).",
    LOCK_READ: "Could not do a physical-order read to fetch next row.",
    LOCK_INSERT: "Could not insert new row into the table.",
    LOCK_UPDATE: "Could not update a row in the table.",
    LOCK_TABLE_MODE: "Cannot lock table (%s) in requested mode.",
    UNLOCK_IN_TXN: "Cannot unlock table (%s) within a transaction.",
    LOCK_TABLE_NO_TXN: "Lock table can only be used within a transaction.",
    DIVIDE_BY_ZERO: "An attempt was made to divide by zero.",
    BAD_YEAR: "Invalid year in date.",
    BAD_MONTH: "Invalid month in date.",
    BAD_DAY: "Invalid day in date.",
    CHAR_TO_NUM: "A character to numeric conversion process failed.",
    SMALLINT_RANGE: "Value too large to fit in a SMALLINT.",
    INTEGER_RANGE: "Value too large to fit in an INTEGER.",
    STRING_TO_DATE: "String to date conversion error.",
    DECIMAL_RANGE: "Decimal or money value exceeds maximum precision.",
    NO_CONVERSION: "It is not possible to convert between the specified types.",
    DT_FIRST_FIELD: "Too many digits in the first field of datetime or interval.",
    DT_NON_NUMERIC: "Non-numeric character in datetime or interval.",
    DT_BAD_FIELD: "A field in a datetime or interval value is incorrect or an illegal operation "
    "specified on datetime field.",
    DT_EXTRA: "Extra characters at the end of a datetime or interval.",
    DT_OVERFLOW: "Overflow occurred on a datetime or interval operation.",
    DT_INCOMPATIBLE: "Intervals or Datetimes are incompatible for the operation.",
    DT_RANGE: "The result of a datetime computation is out of range.",
    DATETIME_AGGREGATE: "Sums and averages cannot be computed on datetime values.",
    DATE_DIFF_AGGREGATE: "SUM and AVG cannot take a difference of two DATE values directly "
    "(multiply it by 1).",
    STRING_TOO_LONG: "Value exceeds string column length.",
    INT8_RANGE: "Value will not fit in a BIGINT or INT8.",
    LO_ERROR: "Smart-large-object error.",
    BAD_FILENAME: "Invalid filename specification (%s).",
    NOT_LO_COLUMN: "Column (%s) incorrect type for storage in sbspace.",
    NO_SBSPACE: "Sbspace (%s) does not exist.",
    ROUTINE_AMBIGUOUS: "Routine (%s) ambiguous - more than one routine resolves to given "
    "signature.",
    VAR_UNDEFINED: "Variable (%s) has undefined value.",
    FUNCTION_ROWS: "Function (%s) has returned more than one row.",
    SYSTEM_FAILED: "System command cannot be executed.",
    CASE_NOT_DEFINED: "The specified case is not defined in the CASE statement",
    ALTER_TEMP: "Cannot alter temporary table (%s).",
    CHECK_SUBQUERY: "Check constraint cannot contain subqueries or procedures.",
    CHECK_VARIANT_ROUTINE: ("Variant user defined routine cannot be used in check constraint "
                            "or fragment expression."),
    NO_PARENT_KEY: "Cannot find unique constraint or primary key on referenced table (%s).",
    REFERENCE_TYPES: "Data type of the referencing and referenced columns do not match.",
    VIEW_ON_TEMP: "Cannot create view on temporary table (%s).",
    TEMP_INDEX_ALTER: "Cannot alter an index on a temporary table.",
    DYN_NULL_TEXT: "EXECUTE IMMEDIATE and PREPARE cannot take NULL statement",
    DYN_OPEN_TWICE: "OPEN attempted on already opened cursor (%s)",
    DYN_NOT_OPEN: "FETCH or CLOSE cannot reference cursor (%s) that is not opened",
    DYN_FREE_OPEN: "Cannot FREE a cursor (%s) that is in use",
    DYN_UNDEFINED: "Either statement-id or cursor name (%s) is not defined",
    DYN_FUNCTION_HOLD: "Function cursor (%s) in SPL cannot have WITH HOLD option",
    DYN_IN_USE: "Either statement-id or cursor (%s) is already in use",
    DYN_SEVERAL: "EXECUTE IMMEDIATE and PREPARE in SPL cannot allow multiple SQL statements",
    DYN_TEXT_TYPE: "Unsupported data type in EXECUTE IMMEDIATE or PREPARE statement",
    DYN_CANNOT_PREPARE: ("The stored procedure execution failed because a statement cannot "
                         "be prepared (%s)."),
    NOT_SCROLL_CURSOR: "Invalid operation on a non-SCROLL cursor.",
    NESTING_TOO_DEEP: "Out of stack space.",
    NOT_IN_SPL: "Illegal SQL statement in SPL routine.",
    FOR_RANGE_NULL: "The range specified in the FOR loop cannot have a NULL value: (%s).",
    LOCAL_DEFAULT: "Local variables do not allow default values.",
    GLOBAL_LIKE: "Variables declared as LIKE cannot be global.",
    RETURN_COUNT: "RETURN value count does not match procedure declaration.",
    RETURN_NOT_DECLARED: "Routine is not declared to return values.",
    GLOBAL_NEEDS_DEFAULT: "Variables declared as GLOBAL require a default value.",
    LOOP_VAR_MODIFIED: "Loop variable(%s) cannot be modified.",
    LOOP_VAR_TWICE: "Loop variable(%s) specified more than once.",
    LOOP_VAR_NOT_INTEGER: "Variable(%s) must be declared INTEGER or SMALLINT.",
    VAR_REDECLARED: "Variable(%s) redeclared.",
    VAR_SERIAL: "Variable(%s) declared as SERIAL type.",
    STEP_NO_TRAVERSE: "Specified STEP expression will not traverse RANGE.",
    STEP_ZERO: "STEP expression evaluated to ZERO.",
    LOOP_VAR_GLOBAL: "Loop variable(%s) cannot be declared GLOBAL.",
    TRACE_NO_DEBUG_FILE: "Set debug file before tracing SPL routines.",
    DUPLICATE_ARGUMENT: "Routine invocation(%s) has duplicate parameter name.",
    NOT_A_PARAMETER: "Argument is not a parameter of procedure (%s).",
    JUMP_OUTSIDE_LOOP: "Bad EXIT/CONTINUE statement. Not within a %s loop.",
    VAR_NAMED_NULL: "Declaration of an SPL variable named 'null' conflicts with SQL NULL value.",
    USER_ERROR: "%s",
    NULL_PRIMARY_KEY: "Primary key on table (%s) has a field with a null key value.",
    PRIMARY_KEY_EXISTS: "Primary key already exists on the table.",
    TRIGGER_TABLE_REF: "Table or column matches object referenced in triggering statement.",
    TRIGGER_CASCADE: "Exceeded limit on maximum number of cascaded triggers.",
    TRIGGER_ON_TEMP: "No referential constraint or trigger allowed on a TEMP table.",
    REFERENCING_NEEDS_ROW: "Cannot specify REFERENCING if trigger does not have FOR EACH ROW.",
    CORRELATION_MISUSE: "Incorrect use of old or new values correlation name inside trigger.",
    INSTEAD_EXECUTE_INTO: "Cannot use EXECUTE PROCEDURE INTO with the INSTEAD OF trigger.",
    INSTEAD_BEFORE_AFTER: "Cannot use BEFORE or AFTER action with the INSTEAD OF trigger.",
    INSTEAD_WHEN: "Cannot use WHEN clause if INSTEAD OF trigger is defined.",
    INSTEAD_SELECT: "Cannot create INSTEAD OF trigger for a select event.",
    INSTEAD_ON_TABLE: "Cannot create an INSTEAD OF trigger on a table (%s).",
    SAVEPOINT_IN_TRIGGER: "Savepoint statements are disallowed inside triggers.",
    OBJECT_EXISTS: "Object (%s) already exists in database.",
    NO_OBJECT: "Object (%s) does not exist in database.",
    ISAM_DUPLICATE: "ISAM error: duplicate value for a record with unique key.",
    ISAM_LOCKED_RECORD: "ISAM error: record is locked.",
    ISAM_NOT_FOUND: "ISAM error: no record found.",
    ISAM_FILE_LOCKED: "ISAM error: the file is locked.",
    ISAM_LOCK_TIMEOUT: "ISAM error: Lock Timeout Expired.",
    ISAM_DEADLOCK: "ISAM error: deadlock detected",
    ISAM_LO_BAD_FD: "Smart Large Objects: Cannot find entry in lofd table.",
    ISAM_LO_BAD_BUFFER: "Smart Large Objects: Invalid buffer size.",
    ISAM_LO_BAD_SEEK: "Smart Large Objects: Invalid seek position.",
    ISAM_LO_BAD_WHENCE: "Smart Large Objects: Invalid whence value for seek.",
    ISAM_LO_BAD_TRUNCATE: "Smart Large Objects: Invalid truncate value for size.",
    ISAM_LO_TOO_BIG: "Smart Large Objects: Size of smart large object or buffer is too big.",
    ISAM_LO_NOT_READABLE: "Smart Large Objects: Smart large object was not opened for read.",
    ISAM_LO_NOT_WRITABLE: "Smart Large Objects: Smart large object was not opened for write.",
    ISAM_LO_BAD_FLAGS: "Smart Large Objects: open: invalid open flags detected at "
    "smart-large-object open time.",
    ISAM_LO_DELETED: "Smart Large Objects: open: Bad smart-large-object address. Object might "
    "have been deleted.",
    ISAM_LO_BAD_HANDLE: "Smart Large Objects: The smart-large-object header is corrupt or an "
    "invalid LO handle was encountered.",
}


def message_for(sqlcode: int, near: str = "") -> str:
    """The catalogue text for ``sqlcode`` with ``near`` filled in, as a server log would show it."""
    text = MESSAGES.get(sqlcode, f"Informix error {sqlcode}.")
    return text.replace("%s", near) if "%s" in text else text
