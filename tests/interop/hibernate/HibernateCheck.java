// Hibernate ORM (hibernate-core + hibernate-community-dialects' InformixDialect) over IBM JDBC,
// against an Informix-compatible server (ifxwire-server).  Written for ifxwire's interop suite.
//
// Compiled and run by tests/interop/test_hibernate.py (the class path is the Maven dependencies
// of tests/interop/hibernate/pom.xml plus the IBM JDBC jar):
//
//   java -cp ... HibernateCheck host=127.0.0.1 port=9088 server=informix database=hb_x \
//        user=informix password=in4mix
//
// It first creates the logged database (CREATE DATABASE ... WITH LOG) over plain JDBC.
//
// Every scenario prints one line "CHECK <name> PASS" or "CHECK <name> FAIL <reason>"; the run
// ends with "DONE".  The scenarios run in order on one SessionFactory whose schema Hibernate
// exports itself (hbm2ddl create): the later ones use the rows the earlier ones wrote.

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Inheritance;
import jakarta.persistence.InheritanceType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import org.hibernate.Hibernate;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.hibernate.exception.ConstraintViolationException;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

public final class HibernateCheck {

    // ------------------------------------------------------------------------------------------
    // The entity model: sequences, foreign keys (many-to-one, a join table, joined inheritance),
    // a @Version column, and the types an application maps most.
    // ------------------------------------------------------------------------------------------

    @Entity(name = "Author")
    @Table(name = "hb_author")
    public static class Author {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "author_seq")
        @SequenceGenerator(name = "author_seq", sequenceName = "hb_author_seq", allocationSize = 1)
        Long id;

        @Column(nullable = false, length = 80)
        String name;

        LocalDate born;

        public Author() {}

        Author(String name, LocalDate born) {
            this.name = name;
            this.born = born;
        }
    }

    @Entity(name = "Tag")
    @Table(name = "hb_tag")
    public static class Tag {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "tag_seq")
        @SequenceGenerator(name = "tag_seq", sequenceName = "hb_tag_seq", allocationSize = 1)
        Long id;

        @Column(nullable = false, unique = true, length = 30)
        String label;

        public Tag() {}

        Tag(String label) {
            this.label = label;
        }
    }

    @Entity(name = "Book")
    @Table(name = "hb_book")
    public static class Book {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "book_seq")
        @SequenceGenerator(name = "book_seq", sequenceName = "hb_book_seq", allocationSize = 50)
        Long id;

        @Column(nullable = false, length = 120)
        String title;

        @Column(precision = 10, scale = 2)
        BigDecimal price;

        int pages;

        boolean inPrint;

        LocalDateTime added;

        @Version
        int version;

        @ManyToOne(fetch = FetchType.LAZY, optional = false)
        @JoinColumn(name = "author_id")
        Author author;

        @ManyToMany
        @JoinTable(name = "hb_book_tag", joinColumns = @JoinColumn(name = "book_id"),
                inverseJoinColumns = @JoinColumn(name = "tag_id"))
        Set<Tag> tags = new HashSet<>();

        public Book() {}

        Book(String title, Author author, BigDecimal price, int pages) {
            this.title = title;
            this.author = author;
            this.price = price;
            this.pages = pages;
            this.inPrint = true;
            this.added = LocalDateTime.of(2024, 2, 29, 12, 30, 45);
        }
    }

    /** Joined inheritance: a bulk HQL mutation of the root needs Hibernate's temp table. */
    @Entity(name = "Vehicle")
    @Table(name = "hb_vehicle")
    @Inheritance(strategy = InheritanceType.JOINED)
    public static class Vehicle {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "vehicle_seq")
        @SequenceGenerator(name = "vehicle_seq", sequenceName = "hb_vehicle_seq", allocationSize = 1)
        Long id;

        @Column(length = 40)
        String maker;

        int wheels;

        public Vehicle() {}
    }

    @Entity(name = "Car")
    @Table(name = "hb_car")
    public static class Car extends Vehicle {
        int seats;

        public Car() {}

        Car(String maker, int seats) {
            this.maker = maker;
            this.wheels = 4;
            this.seats = seats;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Running
    // ------------------------------------------------------------------------------------------

    interface Scenario {
        void run() throws Exception;
    }

    private static String url;
    private static String user;
    private static String password;
    private static SessionFactory factory;

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String base = "jdbc:informix-sqli://" + opts.get("host") + ":" + opts.get("port");
        String props = ":INFORMIXSERVER=" + opts.get("server");
        url = base + "/" + opts.get("database") + props;
        user = opts.get("user");
        password = opts.get("password");
        try (Connection c = DriverManager.getConnection(base + props, user, password)) {
            c.createStatement().execute("create database " + opts.get("database") + " with log");
        }

        Map<String, Scenario> scenarios = new LinkedHashMap<>();
        scenarios.put("schema_export", HibernateCheck::schemaExport);
        scenarios.put("crud", HibernateCheck::crud);
        scenarios.put("batch_insert", HibernateCheck::batchInsert);
        scenarios.put("hql_paging", HibernateCheck::hqlPaging);
        scenarios.put("hql_queries", HibernateCheck::hqlQueries);
        scenarios.put("bulk_mutation_temp_table", HibernateCheck::bulkMutationTempTable);
        scenarios.put("optimistic_lock", HibernateCheck::optimisticLock);
        scenarios.put("constraint_violations", HibernateCheck::constraintViolations);
        scenarios.put("pessimistic_write", () -> HibernateLocks.pessimisticWrite(factory));
        scenarios.put("pessimistic_read", () -> HibernateLocks.pessimisticRead(factory));
        scenarios.put("lock_timeout", () -> HibernateLocks.lockTimeout(factory));
        scenarios.put("lock_wait_released", () -> HibernateLocks.lockWaitReleased(factory));
        scenarios.put("skip_locked", () -> HibernateLocks.skipLocked(factory));
        scenarios.put("schema_drop", HibernateCheck::schemaDrop);
        for (Map.Entry<String, Scenario> e : scenarios.entrySet()) {
            String name = e.getKey();
            try {
                if (factory == null && !name.equals("schema_export")) {
                    throw new IllegalStateException("no SessionFactory (schema_export failed)");
                }
                e.getValue().run();
                System.out.println("CHECK " + name + " PASS");
            } catch (Throwable t) {
                System.out.println("CHECK " + name + " FAIL " + describe(t));
                t.printStackTrace();
            }
            System.out.flush();
        }
        if (factory != null) {
            factory.close();
        }
        System.out.println("DONE");
    }

    /** One line: the chain of causes, with SQLException's sqlcode. */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
            if (c instanceof SQLException s) {
                sb.append(" [sqlcode ").append(s.getErrorCode()).append(']');
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString().replace('\n', ' ').replace('\r', ' ');
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    static void eq(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> got <" + actual + ">");
        }
    }

    // ------------------------------------------------------------------------------------------
    // Scenarios
    // ------------------------------------------------------------------------------------------

    /** hbm2ddl create: sequences, tables, foreign keys and the unique key, read back by JDBC. */
    static void schemaExport() throws Exception {
        Configuration cfg = new Configuration()
                .addAnnotatedClass(Author.class)
                .addAnnotatedClass(Tag.class)
                .addAnnotatedClass(Book.class)
                .addAnnotatedClass(Vehicle.class)
                .addAnnotatedClass(Car.class)
                .setProperty("hibernate.connection.url", url)
                .setProperty("hibernate.connection.username", user)
                .setProperty("hibernate.connection.password", password)
                .setProperty("hibernate.connection.pool_size", "3")
                .setProperty("hibernate.dialect", "org.hibernate.community.dialect.InformixDialect")
                .setProperty("hibernate.hbm2ddl.auto", "create")
                .setProperty("hibernate.hbm2ddl.halt_on_error", "true")
                .setProperty("hibernate.jdbc.batch_size", "25")
                .setProperty("hibernate.order_inserts", "true")
                .setProperty("hibernate.show_sql", System.getProperty("hibernate.show_sql", "false"));
        factory = cfg.buildSessionFactory();

        try (Connection c = DriverManager.getConnection(url, user, password)) {
            DatabaseMetaData md = c.getMetaData();
            Set<String> tables = new TreeSet<>();
            try (ResultSet rs = md.getTables(null, null, "hb_%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME").trim());
                }
            }
            eq(new TreeSet<>(List.of("hb_author", "hb_book", "hb_book_tag", "hb_car", "hb_tag",
                    "hb_vehicle")), tables, "tables");
            Set<String> fks = new TreeSet<>();
            for (String t : List.of("hb_book", "hb_book_tag", "hb_car")) {
                try (ResultSet rs = md.getImportedKeys(null, null, t)) {
                    while (rs.next()) {
                        fks.add(t + "." + rs.getString("FKCOLUMN_NAME").trim() + "->"
                                + rs.getString("PKTABLE_NAME").trim() + "."
                                + rs.getString("PKCOLUMN_NAME").trim());
                    }
                }
            }
            eq(new TreeSet<>(List.of("hb_book.author_id->hb_author.id",
                    "hb_book_tag.book_id->hb_book.id", "hb_book_tag.tag_id->hb_tag.id",
                    "hb_car.id->hb_vehicle.id")), fks, "foreign keys");
            Set<String> seqs = new TreeSet<>();
            try (ResultSet rs = c.createStatement().executeQuery(
                    "select t.tabname from syssequences s, systables t where s.tabid = t.tabid")) {
                while (rs.next()) {
                    seqs.add(rs.getString(1).trim());
                }
            }
            check(seqs.containsAll(List.of("hb_author_seq", "hb_book_seq", "hb_tag_seq",
                    "hb_vehicle_seq")), "sequences: " + seqs);
        }
    }

    /** Persist a graph, read it back, update it, delete part of it. */
    static void crud() {
        long bookId;
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            Author a = new Author("Ursula K. Le Guin", LocalDate.of(1929, 10, 21));
            s.persist(a);
            Tag sf = new Tag("sf");
            Tag classic = new Tag("classic");
            s.persist(sf);
            s.persist(classic);
            Book b = new Book("The Dispossessed", a, new BigDecimal("12.50"), 387);
            b.tags.add(sf);
            b.tags.add(classic);
            s.persist(b);
            s.getTransaction().commit();
            bookId = b.id;
            check(a.id != null && a.id > 0, "author id from the sequence: " + a.id);
        }
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            Book b = s.get(Book.class, bookId);
            check(b != null, "book " + bookId + " not found");
            eq("The Dispossessed", b.title, "title");
            eq(new BigDecimal("12.50"), b.price, "price");
            eq(LocalDateTime.of(2024, 2, 29, 12, 30, 45), b.added, "added");
            check(!Hibernate.isInitialized(b.author), "author loaded eagerly");
            eq(LocalDate.of(1929, 10, 21), ((Author) Hibernate.unproxy(b.author)).born,
                    "author born (lazy load)");
            eq(2, b.tags.size(), "tags");
            eq(0, b.version, "version");
            b.price = new BigDecimal("13.99");
            b.inPrint = false;
            s.getTransaction().commit();
        }
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            Book b = s.get(Book.class, bookId);
            eq(new BigDecimal("13.99"), b.price, "updated price");
            eq(false, b.inPrint, "inPrint");
            eq(1, b.version, "version after update");
            Tag classic = s.createQuery("from Tag where label = :l", Tag.class)
                    .setParameter("l", "classic").getSingleResult();
            b.tags.remove(classic);
            s.remove(classic);
            s.getTransaction().commit();
        }
        try (Session s = factory.openSession()) {
            Book b = s.get(Book.class, bookId);
            eq(1, b.tags.size(), "tags after delete");
            eq(1L, s.createQuery("select count(t) from Tag t", Long.class).getSingleResult(),
                    "tag rows");
        }
    }

    /** 120 books in one transaction with hibernate.jdbc.batch_size=25 (JDBC batches). */
    static void batchInsert() {
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            Author a = new Author("Batch Author", null);
            s.persist(a);
            long authorId = a.id;
            for (int i = 0; i < 120; i++) {
                s.persist(new Book(String.format("Volume %03d", i), a,
                        new BigDecimal(i).movePointLeft(1), 100 + i));
                if (i % 25 == 24) {
                    s.flush();
                    s.clear();
                    a = s.getReference(Author.class, authorId);
                }
            }
            s.getTransaction().commit();
        }
        try (Session s = factory.openSession()) {
            eq(120L, s.createQuery(
                    "select count(b) from Book b where b.author.name = 'Batch Author'", Long.class)
                    .getSingleResult(), "batched rows");
            eq(100L * 120 + 119 * 120 / 2, s.createQuery(
                    "select sum(b.pages) from Book b where b.title like 'Volume%'", Long.class)
                    .getSingleResult(), "sum of pages");
        }
    }

    /** setFirstResult/setMaxResults: InformixDialect renders SKIP ? FIRST ?. */
    static void hqlPaging() {
        try (Session s = factory.openSession()) {
            List<String> page = s.createQuery(
                    "select b.title from Book b where b.title like 'Volume%' order by b.title",
                    String.class).setFirstResult(10).setMaxResults(5).getResultList();
            eq(List.of("Volume 010", "Volume 011", "Volume 012", "Volume 013", "Volume 014"),
                    page, "page 3 of 5");
            List<String> first = s.createQuery(
                    "select b.title from Book b where b.title like 'Volume%' order by b.title desc",
                    String.class).setMaxResults(2).getResultList();
            eq(List.of("Volume 119", "Volume 118"), first, "first 2");
            List<String> last = s.createQuery(
                    "select b.title from Book b where b.title like 'Volume%' order by b.title",
                    String.class).setFirstResult(118).getResultList();
            eq(List.of("Volume 118", "Volume 119"), last, "skip only");
            // Paging with a fetch join and a parameter in the where clause.
            List<Book> books = s.createQuery(
                    "from Book b join fetch b.author where b.pages >= :p order by b.pages",
                    Book.class).setParameter("p", 200).setFirstResult(1).setMaxResults(3)
                    .getResultList();
            eq(3, books.size(), "fetch-join page size");
            eq(201, books.get(0).pages, "fetch-join page start");
        }
    }

    /** Joins, aggregates, group by / having, functions, a subquery, a projection. */
    static void hqlQueries() {
        try (Session s = factory.openSession()) {
            List<Object[]> rows = s.createQuery(
                    "select a.name, count(b), max(b.price) from Book b join b.author a "
                    + "group by a.name having count(b) > 0 order by a.name", Object[].class)
                    .getResultList();
            eq(2, rows.size(), "authors");
            eq("Batch Author", rows.get(0)[0], "first author");
            eq(120L, rows.get(0)[1], "count");
            eq(new BigDecimal("11.90"), rows.get(0)[2], "max price");
            String upper = s.createQuery(
                    "select upper(substring(b.title, 1, 3)) || '-' || str(length(b.title)) "
                    + "from Book b where b.title = :t", String.class)
                    .setParameter("t", "The Dispossessed").getSingleResult();
            eq("THE-16", upper, "string functions");
            Long withTags = s.createQuery(
                    "select count(b) from Book b where exists (select 1 from b.tags t "
                    + "where t.label in ('sf', 'fantasy'))", Long.class).getSingleResult();
            eq(1L, withTags, "exists over the join table");
            List<Integer> years = s.createQuery(
                    "select year(a.born) from Author a where a.born is not null", Integer.class)
                    .getResultList();
            eq(List.of(1929), years, "year()");
            Long cheap = s.createQuery("select count(b) from Book b where b.price between "
                    + ":lo and :hi and b.inPrint = true", Long.class)
                    .setParameter("lo", new BigDecimal("0.5")).setParameter("hi",
                            new BigDecimal("1.0")).getSingleResult();
            eq(6L, cheap, "between with parameters");
        }
    }

    /** Bulk HQL update/delete of a joined hierarchy: Hibernate's temp table (HT_...). */
    static void bulkMutationTempTable() {
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            for (int i = 0; i < 6; i++) {
                s.persist(new Car(i % 2 == 0 ? "Volvo" : "Saab", 2 + i));
            }
            s.getTransaction().commit();
        }
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            int updated = s.createMutationQuery(
                    "update Car c set c.maker = 'SAAB', c.seats = c.seats + 1 where c.maker = 'Saab'")
                    .executeUpdate();
            eq(3, updated, "rows updated through the temp table");
            int deleted = s.createMutationQuery("delete from Vehicle v where v.maker = 'Volvo'")
                    .executeUpdate();
            eq(3, deleted, "rows deleted through the temp table");
            s.getTransaction().commit();
        }
        try (Session s = factory.openSession()) {
            List<Integer> seats = s.createQuery(
                    "select c.seats from Car c where c.maker = 'SAAB' order by c.seats",
                    Integer.class).getResultList();
            eq(List.of(4, 6, 8), seats, "cars left");
        }
    }

    /** @Version: a stale update fails with OptimisticLockException, the fresh one succeeds. */
    static void optimisticLock() {
        long id;
        try (Session s = factory.openSession()) {
            id = s.createQuery("select b.id from Book b where b.title = 'Volume 000'", Long.class)
                    .getSingleResult();
        }
        Session stale = factory.openSession();
        try {
            stale.beginTransaction();
            Book mine = stale.get(Book.class, id);
            int before = mine.version;
            try (Session other = factory.openSession()) {
                other.beginTransaction();
                Book theirs = other.get(Book.class, id);
                theirs.pages = 999;
                other.getTransaction().commit();
            }
            mine.pages = 1;
            Throwable caught = null;
            try {
                stale.flush();
            } catch (Throwable t) {
                caught = t;
            }
            check(caught instanceof OptimisticLockException,
                    "expected OptimisticLockException, got " + (caught == null ? "nothing"
                    : describe(caught)));
            stale.getTransaction().rollback();
            try (Session s = factory.openSession()) {
                Book b = s.get(Book.class, id);
                eq(999, b.pages, "the other transaction's value");
                eq(before + 1, b.version, "version");
            }
        } finally {
            stale.close();
        }
    }

    static String constraintName(Connection c, String table, String type) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("select c.constrname from "
                + "sysconstraints c, systables t where c.tabid = t.tabid and t.tabname = '"
                + table + "' and c.constrtype = '" + type + "'")) {
            check(rs.next(), "no " + type + " constraint on " + table);
            return rs.getString(1).trim();
        }
    }

    /** The violation Hibernate reports, found in the cause chain. */
    static ConstraintViolationException violation(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ConstraintViolationException v) {
                return v;
            }
        }
        throw new AssertionError("no ConstraintViolationException in " + describe(t));
    }

    /**
     * A duplicate unique key (-268) and a referenced parent deleted (-692): InformixDialect maps
     * the sqlcodes to the constraint kind and reads the constraint's name out of the message,
     * where Informix puts "owner.constraint".
     */
    static void constraintViolations() throws Exception {
        String unique;
        String foreignKey;
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            unique = constraintName(c, "hb_tag", "U");
            foreignKey = constraintName(c, "hb_book", "R");
        }
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            s.persist(new Tag("sf"));
            Throwable caught = null;
            try {
                s.flush();
            } catch (Throwable t) {
                caught = t;
            }
            check(caught != null, "duplicate label accepted");
            ConstraintViolationException v = violation(caught);
            eq(ConstraintViolationException.ConstraintKind.UNIQUE, v.getKind(), "kind");
            eq(unique, v.getConstraintName(), "unique constraint name");
            s.getTransaction().rollback();
        }
        try (Session s = factory.openSession()) {
            s.beginTransaction();
            Throwable caught = null;
            try {
                s.createMutationQuery("delete from Author a where a.name = 'Batch Author'")
                        .executeUpdate();
            } catch (Throwable t) {
                caught = t;
            }
            check(caught != null, "a referenced author was deleted");
            ConstraintViolationException v = violation(caught);
            eq(ConstraintViolationException.ConstraintKind.FOREIGN_KEY, v.getKind(), "kind");
            eq(foreignKey, v.getConstraintName(), "foreign key name");
            s.getTransaction().rollback();
        }
    }

    /** hbm2ddl drop of everything it created (what a test harness does at the end). */
    static void schemaDrop() throws Exception {
        factory.getSchemaManager().dropMappedObjects(false);
        try (Connection c = DriverManager.getConnection(url, user, password);
                ResultSet rs = c.createStatement().executeQuery(
                        "select count(*) from systables where tabname like 'hb_%'")) {
            rs.next();
            eq(0, rs.getInt(1), "tables and sequences left");
        }
    }
}
