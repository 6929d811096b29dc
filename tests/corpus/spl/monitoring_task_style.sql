-- Models: the monitoring functions of domusonline/InformixScripts (Fernando Nunes' "Informix
-- Monit" project: monit/monit_check_extents.sql and its siblings), written for the
-- sysadmin database's task scheduler: DEFINE ... LIKE table.column for every variable read
-- from a table, a FOREACH over a parameter table with one IF ... CONTINUE FOREACH per name,
-- a FOREACH query and END IF / END FOREACH written without semicolons, double-quoted
-- strings, != , an alert row inserted or updated (the original writes the UPDATE as
-- SET (a, b) = (x, y); that form belongs to the SQL corpus), CURRENT YEAR TO SECOND, TRACE lines after a SET DEBUG FILE TO that the first alert
-- runs (the original names a report file there; ours is a name inside the test server's
-- trace directory, as TRACE without a debug file is -687), and
-- a helper procedure called with EXECUTE PROCEDURE. Tables and data are ours, modelled on
-- sysadmin's ph_threshold / ph_alert and on sysmaster's table statistics.

CREATE TABLE ph_threshold (
    id SERIAL, name VARCHAR(40), task_name VARCHAR(40), value VARCHAR(20),
    value_type CHAR(8), description VARCHAR(80)
);
CREATE TABLE ph_alert (
    id SERIAL, alert_task_id INTEGER, alert_task_seq INTEGER, alert_type CHAR(8),
    alert_color CHAR(6), alert_time DATETIME YEAR TO SECOND, alert_state CHAR(10),
    alert_object_name VARCHAR(40), alert_message VARCHAR(254)
);
CREATE TABLE tab_stats (dbsname VARCHAR(32), tabname VARCHAR(64), nextents INTEGER,
    free_pages INTEGER);
CREATE TABLE alarm_log (severity SMALLINT, class SMALLINT, message VARCHAR(254));

INSERT INTO ph_threshold VALUES (0, 'NUM ALARMS', 'Monit Check Extents', '3', 'NUMERIC',
    'Number of alarms sent');
INSERT INTO ph_threshold VALUES (0, 'YELLOW ABS THRESHOLD', 'Monit Check Extents', '50',
    'NUMERIC', 'Extents that trigger a YELLOW alarm');
INSERT INTO ph_threshold VALUES (0, 'RED ABS THRESHOLD', 'Monit Check Extents', '100',
    'NUMERIC', 'Extents that trigger a RED alarm');
INSERT INTO ph_threshold VALUES (0, 'IGNORED', 'Other task', '1', 'NUMERIC', 'not ours');
INSERT INTO tab_stats VALUES ('stores', 'customer', 12, 800);
INSERT INTO tab_stats VALUES ('stores', 'orders', 64, 160);
INSERT INTO tab_stats VALUES ('sysmaster', 'sysptnhdr', 500, 0);

CREATE PROCEDURE call_alarmprogram(severity SMALLINT, class SMALLINT, message VARCHAR(254))
    INSERT INTO alarm_log VALUES (severity, class, message);
END PROCEDURE;

CREATE FUNCTION monit_check_extents(task_id INTEGER, v_id INTEGER) RETURNING INTEGER

DEFINE v_num_alarms SMALLINT;
DEFINE v_alert_id LIKE ph_alert.id;
DEFINE v_alert_task_seq LIKE ph_alert.alert_task_seq;
DEFINE v_alert_color, v_current_alert_color CHAR(6);
DEFINE v_message VARCHAR(254,0);
DEFINE v_severity, v_class SMALLINT;
DEFINE v_abs_threshold_yellow, v_abs_threshold_red INTEGER;
DEFINE v_database LIKE tab_stats.dbsname;
DEFINE v_tabname LIKE tab_stats.tabname;
DEFINE v_num_extents INTEGER;
DEFINE v_worst INTEGER;
DEFINE v_aux_threshold_name LIKE ph_threshold.name;
DEFINE v_aux_threshold_value LIKE ph_threshold.value;

--TRACE ON;
LET v_num_alarms = 3;
LET v_class = 912;
LET v_abs_threshold_yellow = 80;
LET v_abs_threshold_red = 150;
LET v_worst = 0;

FOREACH
    SELECT
        p.name, p.value
    INTO
        v_aux_threshold_name, v_aux_threshold_value
    FROM
        ph_threshold p
    WHERE
        p.task_name = 'Monit Check Extents'

    IF v_aux_threshold_name = 'NUM ALARMS'
    THEN
        LET v_num_alarms = v_aux_threshold_value;
        CONTINUE FOREACH;
    END IF;
    IF v_aux_threshold_name = 'YELLOW ABS THRESHOLD'
    THEN
        LET v_abs_threshold_yellow = v_aux_threshold_value;
        CONTINUE FOREACH;
    END IF;
    IF v_aux_threshold_name = 'RED ABS THRESHOLD'
    THEN
        LET v_abs_threshold_red = v_aux_threshold_value;
        CONTINUE FOREACH;
    END IF;
END FOREACH;

LET v_alert_color = NULL;

FOREACH
    SELECT
        t.dbsname, t.tabname, t.nextents
    INTO
        v_database, v_tabname, v_num_extents
    FROM
        tab_stats t
    WHERE
        t.dbsname NOT IN ('sysmaster')
    ORDER BY 3 DESC, 1, 2

    IF v_num_extents > v_abs_threshold_red
    THEN
        IF v_alert_color IS NULL
        THEN
            SET DEBUG FILE TO 'monit_check_extents.rpt';
        END IF
        LET v_alert_color = 'RED';
        TRACE "RED " || v_database || ":" || v_tabname;
    ELSE
        IF v_num_extents > v_abs_threshold_yellow
        THEN
            IF v_alert_color IS NULL
            THEN
                SET DEBUG FILE TO 'monit_check_extents.rpt';
                LET v_alert_color = 'YELLOW';
            END IF
            TRACE "YELLOW " || v_database || ":" || v_tabname;
        END IF
    END IF
    IF v_num_extents > v_worst THEN LET v_worst = v_num_extents; END IF
END FOREACH

IF v_alert_color IS NULL
THEN
    LET v_alert_id = NULL;
    SELECT p.id INTO v_alert_id FROM ph_alert p
        WHERE p.alert_task_id = task_id AND p.alert_object_name = 'TOO MANY EXTENTS'
        AND p.alert_state = "NEW";
    IF v_alert_id IS NOT NULL
    THEN
        UPDATE ph_alert SET alert_state = 'ADDRESSED' WHERE ph_alert.id = v_alert_id;
        EXECUTE PROCEDURE call_alarmprogram(3, v_class, 'Previous alarm cleared.');
    END IF;
ELSE
    LET v_message = 'Tables exceed ' || v_abs_threshold_yellow || ' extents (worst '
        || v_worst || ')';
    LET v_alert_id = NULL;
    SELECT p.id, p.alert_task_seq, p.alert_color
        INTO v_alert_id, v_alert_task_seq, v_current_alert_color
        FROM ph_alert p
        WHERE p.alert_task_id = task_id AND p.alert_object_name = 'TOO MANY EXTENTS'
        AND p.alert_state = "NEW";
    IF v_alert_id IS NULL
    THEN
        INSERT INTO ph_alert (id, alert_task_id, alert_task_seq, alert_type, alert_color,
            alert_time, alert_state, alert_object_name, alert_message)
        VALUES (0, task_id, v_id, 'WARNING', v_alert_color, CURRENT YEAR TO SECOND, 'NEW',
            'TOO MANY EXTENTS', v_message);
        EXECUTE PROCEDURE call_alarmprogram(3, v_class, v_message);
    ELSE
        IF (v_current_alert_color != v_alert_color)
        THEN
            UPDATE ph_alert
            SET alert_task_seq = v_id, alert_color = v_alert_color
            WHERE ph_alert.id = v_alert_id;
            LET v_message = TRIM(v_message) || ". Changed to " || TRIM(v_alert_color) || "!";
            EXECUTE PROCEDURE call_alarmprogram(4, v_class, v_message);
        ELSE
            IF (v_id < v_alert_task_seq + v_num_alarms) OR (v_num_alarms = 0)
            THEN
                EXECUTE PROCEDURE call_alarmprogram(3, v_class, v_message);
            END IF
        END IF;
    END IF;
END IF;

RETURN v_worst;
END FUNCTION;

-- 64 extents is over the configured YELLOW threshold (50), under RED (100): a new alert.
EXECUTE FUNCTION monit_check_extents(7, 1);
-- @rows: [(64,)]
SELECT alert_task_seq, alert_color, alert_state, alert_message FROM ph_alert;
-- @rows: [(1, 'YELLOW', 'NEW', 'Tables exceed 50 extents (worst 64)')]
SELECT COUNT(*) FROM ph_alert WHERE alert_time IS NULL;
-- @rows: [(Decimal('0'),)]

-- The same again: the alert is resent while fewer than NUM ALARMS runs have passed.
EXECUTE FUNCTION monit_check_extents(7, 2);
EXECUTE FUNCTION monit_check_extents(7, 3);
EXECUTE FUNCTION monit_check_extents(7, 4);
SELECT COUNT(*) FROM alarm_log;
-- @rows: [(Decimal('3'),)]

-- orders grows past RED: the alert changes colour.
UPDATE tab_stats SET nextents = 120 WHERE tabname = 'orders';
EXECUTE FUNCTION monit_check_extents(7, 5);
-- @rows: [(120,)]
SELECT alert_task_seq, alert_color FROM ph_alert;
-- @rows: [(5, 'RED')]
SELECT severity, message FROM alarm_log WHERE severity = 4;
-- @rows: [(4, 'Tables exceed 50 extents (worst 120). Changed to RED!')]

-- Back to normal: the alert is addressed and an all-clear alarm is sent.
UPDATE tab_stats SET nextents = 10;
EXECUTE FUNCTION monit_check_extents(7, 6);
-- @rows: [(10,)]
SELECT alert_state FROM ph_alert;
-- @rows: [('ADDRESSED',)]
SELECT COUNT(*) FROM alarm_log WHERE message = 'Previous alarm cleared.';
-- @rows: [(Decimal('1'),)]
