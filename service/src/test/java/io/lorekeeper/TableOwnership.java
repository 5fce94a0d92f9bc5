package io.lorekeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which module's code touches which table: the SQL in the string literals and text blocks of the
 * production sources, read for table names after {@code FROM}, {@code JOIN}, {@code INTO},
 * {@code UPDATE} and {@code TABLE}, against the owners the modules declare with
 * {@link io.lorekeeper.platform.OwnsTables}. Comments are skipped (a javadoc saying "read from
 * document" is not a query), and so is every word that is not a table some migration creates.
 * Literals joined by {@code +} are read as one, so a query split over lines is still seen whole.
 */
final class TableOwnership {

    private static final Pattern REFERENCE = Pattern.compile(
            "\\b(?:from|join|into|update|table)\\s+(?:only\\s+)?([a-z_][a-z0-9_]*)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE = Pattern.compile(
            "\\bcreate\\s+table\\s+(?:if\\s+not\\s+exists\\s+)?([a-z_][a-z0-9_]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP =
            Pattern.compile("\\bdrop\\s+table\\s+(?:if\\s+exists\\s+)?([a-z_][a-z0-9_]*)", Pattern.CASE_INSENSITIVE);

    /** A table named by SQL in a class of a module. */
    record Reference(String module, String className, String table) {}

    /** A module's class touching a table another module owns. */
    record Violation(String className, String table, String owner) {
        @Override
        public String toString() {
            return className + " touches table " + table + " owned by module " + owner;
        }
    }

    private TableOwnership() {}

    /** The tables the migrations leave in place: created and not dropped again (in version order, by file name). */
    static Set<String> tablesOf(Path migrations) {
        Set<String> tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(migrations)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql"))
                    .sorted(TableOwnership::byVersion)
                    .toList()) {
                String sql = withoutSqlComments(Files.readString(file)).toLowerCase(Locale.ROOT);
                CREATE.matcher(sql).results().forEach(m -> tables.add(m.group(1)));
                DROP.matcher(sql).results().forEach(m -> tables.remove(m.group(1)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tables;
    }

    private static int byVersion(Path a, Path b) {
        return compareVersions(version(a), version(b));
    }

    private static List<Integer> version(Path file) {
        String name = file.getFileName().toString();
        String v = name.substring(1, name.indexOf("__"));
        return Stream.of(v.split("[._]")).map(Integer::valueOf).toList();
    }

    private static int compareVersions(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            int c = Integer.compare(i < a.size() ? a.get(i) : 0, i < b.size() ? b.get(i) : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static String withoutSqlComments(String sql) {
        return sql.replaceAll("--[^\\n]*", " ").replaceAll("(?s)/\\*.*?\\*/", " ");
    }

    /** The known tables the SQL in a source file's string literals names. */
    static Set<String> tablesReferenced(String javaSource, Set<String> knownTables) {
        Set<String> found = new TreeSet<>();
        for (String literal : sqlLiterals(javaSource)) {
            Matcher m = REFERENCE.matcher(literal);
            while (m.find()) {
                String name = m.group(1).toLowerCase(Locale.ROOT);
                if (knownTables.contains(name)) {
                    found.add(name);
                }
            }
        }
        return found;
    }

    /**
     * Every production source under {@code sourceRoot}, checked against the owners: the violations,
     * sorted by class and table. A class belongs to the module of its top-level package under
     * {@code basePackage}.
     */
    static List<Violation> violations(Path sourceRoot, String basePackage, Map<String, String> ownerOfTable) {
        List<Violation> violations = new ArrayList<>();
        Path base = sourceRoot.resolve(basePackage.replace('.', '/'));
        try (Stream<Path> files = Files.walk(base)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = base.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue; // the application class itself, above every module
                }
                String module = relative.getName(0).toString();
                String className = basePackage + "."
                        + relative.toString().replace(".java", "").replace('/', '.');
                for (String table : tablesReferenced(Files.readString(file), ownerOfTable.keySet())) {
                    String owner = ownerOfTable.get(table);
                    if (!owner.equals(module)) {
                        violations.add(new Violation(className, table, owner));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return violations;
    }

    /**
     * The contents of the string literals and text blocks of a Java source; literals joined only by
     * {@code +} and other code on the same statement are concatenated with a space, so
     * {@code "SELECT " + COLUMNS + " FROM chunk"} reads as one query.
     */
    static List<String> sqlLiterals(String source) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                i = source.indexOf('\n', i);
                i = i < 0 ? n : i;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'') {
                i = skipQuoted(source, i, '\'');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                while (end > 0 && source.charAt(end - 1) == '\\') {
                    end = source.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? n : end;
                current.append(source, i + 3, end).append(' ');
                i = end + 3;
            } else if (c == '"') {
                int end = skipQuoted(source, i, '"');
                current.append(source, i + 1, Math.max(i + 1, end - 1)).append(' ');
                i = end;
            } else if (c == ';' || c == '{' || c == '}') {
                if (!current.isEmpty()) {
                    statements.add(current.toString());
                    current.setLength(0);
                }
                i++;
            } else {
                i++;
            }
        }
        if (!current.isEmpty()) {
            statements.add(current.toString());
        }
        return statements;
    }

    /** The index after the closing quote of a literal that opens at {@code start}. */
    private static int skipQuoted(String source, int start, char quote) {
        int i = start + 1;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote || c == '\n') {
                return i + 1;
            } else {
                i++;
            }
        }
        return i;
    }

    /** Owners by table from the declarations: fails on a table declared by two modules. */
    static Map<String, String> ownerOfTable(Map<String, List<String>> tablesByModule, List<String> problems) {
        Map<String, String> owners = new TreeMap<>();
        tablesByModule.forEach((module, tables) -> tables.forEach(table -> {
            String previous = owners.putIfAbsent(table, module);
            if (previous != null && !previous.equals(module)) {
                problems.add("table " + table + " is declared by both " + previous + " and " + module);
            }
        }));
        return owners;
    }
}
