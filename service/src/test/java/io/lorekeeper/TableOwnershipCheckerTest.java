package io.lorekeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ownership check itself, on sample sources and migrations: it finds what it must and fails when it should. */
class TableOwnershipCheckerTest {

    private static final Set<String> TABLES = Set.of("document", "chunk", "memo", "question", "page");

    @Test
    void findsTablesInEveryKindOfStatement() {
        String source = """
                class Sample {
                    void sql() {
                        jdbc.sql(\"""
                                SELECT c.text FROM chunk c
                                JOIN document d ON d.id = c.document_id\""");
                        jdbc.sql("INSERT INTO memo (id) VALUES (?)");
                        jdbc.sql("UPDATE question SET x = 1");
                        jdbc.sql("DELETE FROM page WHERE id = ?");
                    }
                }
                """;
        assertThat(TableOwnership.tablesReferenced(source, TABLES))
                .containsExactlyInAnyOrder("chunk", "document", "memo", "question", "page");
    }

    @Test
    void readsLiteralsJoinedByPlusAsOneQuery() {
        String source = """
                class Sample {
                    List<Hit> hits() {
                        return jdbc.sql("SELECT " + COLUMNS + " FROM "
                                + "chunk c WHERE c.document_id = ?").list();
                    }
                }
                """;
        assertThat(TableOwnership.tablesReferenced(source, TABLES)).containsExactly("chunk");
    }

    @Test
    void ignoresCommentsUnknownWordsAndCharLiterals() {
        String source = """
                class Sample {
                    // reads from document, joins page
                    /** Embedded from question to question. */
                    char quote = '"';
                    String s = "SELECT x FROM unnest(?) u JOIN lateral_thing t";
                }
                """;
        assertThat(TableOwnership.tablesReferenced(source, TABLES)).isEmpty();
    }

    @Test
    void namesTheClassTheTableAndItsOwner(@TempDir Path root) throws Exception {
        write(root, "io/x/retrieval/Search.java", "class Search { String q = \"SELECT * FROM chunk\"; }");
        write(root, "io/x/document/Store.java", "class Store { String q = \"INSERT INTO chunk VALUES (1)\"; }");
        write(root, "io/x/App.java", "class App { String q = \"SELECT * FROM chunk\"; }");
        assertThat(TableOwnership.violations(root, "io.x", Map.of("chunk", "document")))
                .map(TableOwnership.Violation::toString)
                .containsExactly("io.x.retrieval.Search touches table chunk owned by module document");
    }

    @Test
    void aTableDeclaredTwiceIsAProblem() {
        List<String> problems = new ArrayList<>();
        TableOwnership.ownerOfTable(Map.of("document", List.of("chunk"), "retrieval", List.of("chunk")), problems);
        assertThat(problems).singleElement().asString().contains("chunk");
    }

    @Test
    void tablesAreWhatTheMigrationsLeave(@TempDir Path migrations) throws Exception {
        Files.writeString(
                migrations.resolve("V1__a.sql"),
                "CREATE TABLE a (id int);\n-- CREATE TABLE commented (id int);\nCREATE TABLE b (id int);");
        Files.writeString(migrations.resolve("V2__c.sql"), "CREATE TABLE IF NOT EXISTS c (id int);");
        Files.writeString(migrations.resolve("V10__drop.sql"), "DROP TABLE b;");
        assertThat(TableOwnership.tablesOf(migrations)).containsExactly("a", "c");
    }

    private static void write(Path root, String path, String source) throws Exception {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
    }
}
