package io.lorekeeper.console;

import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.lorekeeper.memory.FaultInjectingEmbeddingModel;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.BuildDirectory;
import io.lorekeeper.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The web console in a real headless Chromium against the running service: one browser for all
 * cases. Debian's chromium and chromium-driver are installed by scripts/test.sh; where they are
 * missing the class is skipped, except under CI, where that is a failure.
 */
@IntegrationTest
class ConsoleBrowserTest {

    private static final Path CHROMIUM = Path.of(System.getProperty("lorekeeper.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("lorekeeper.chromedriver", "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = BuildDirectory.PATH.resolve("screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static ChromeDriver browser;
    private static Path profile;
    private static Path files;

    @Autowired
    Api api;

    @Autowired
    FaultInjectingEmbeddingModel embeddings;

    @Autowired
    JdbcClient jdbc;

    @BeforeAll
    static void startBrowser() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present && System.getenv("CI") == null) {
            Assumptions.abort("no " + CHROMIUM + " / " + CHROMEDRIVER + ": run scripts/test.sh, which installs them");
        }
        assertThat(present)
                .as("chromium and chromedriver must be installed under CI (" + CHROMIUM + ", " + CHROMEDRIVER + ")")
                .isTrue();
        profile = Files.createTempDirectory("lk-chromium-");
        files = Files.createTempDirectory("lk-uploads-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--window-size=1440,1100",
                "--lang=en-GB");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        for (Path dir : new Path[] {profile, files}) {
            if (dir != null) {
                try (Stream<Path> walk = Files.walk(dir)) {
                    walk.sorted(Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    @BeforeEach
    void openConsole() {
        browser.get("about:blank"); // a fresh page each time: from /#ask, /#documents would only change the hash
        browser.get(api.uri("/#documents").toString());
        until(() -> browser.findElement(By.id("view-documents")).isDisplayed());
    }

    @AfterEach
    void screenshot(TestInfo test) throws IOException {
        embeddings.heal();
        save(test.getTestMethod().orElseThrow().getName() + "-end");
    }

    @Test
    void anUploadShowsItsStagesProgressingUntilReady() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String title = "Tide mill " + marker;
        Path file = files.resolve("tide-mill-" + marker + ".txt");
        Files.writeString(
                file,
                "The tide mill of Carew " + marker + " ground corn for four hundred years.\n\n"
                        + "Its pond filled at every high tide and drove the wheel as the water ran back out.\n",
                StandardCharsets.UTF_8);
        embeddings.hold(); // keeps the embed stage running until the page has shown it

        browser.findElement(By.id("upload-file")).sendKeys(file.toAbsolutePath().toString());
        browser.findElement(By.id("upload-title")).sendKeys(title);
        browser.findElement(By.cssSelector("#upload-form button[type=submit]")).click();

        By row = By.xpath("//tr[.//span[@class='doc-title' and text()='" + title + "']]");
        until(() -> !browser.findElements(row).isEmpty());
        UUID id = UUID.fromString(browser.findElement(row).getDomAttribute("data-id"));
        await().atMost(WAIT).until(() -> embeddings.held() > 0);
        // The page polls: it shows the document INGESTING, segmentation done and embedding under way.
        until(() -> "INGESTING".equals(browser.findElement(row).getDomAttribute("data-status"))
                && "DONE".equals(stageStatus(row, "segment"))
                && "RUNNING".equals(stageStatus(row, "embed")));
        save("upload-progress");

        embeddings.release();
        until(() -> "READY".equals(browser.findElement(row).getDomAttribute("data-status"))
                && browser.findElement(row)
                        .findElements(By.cssSelector("li[data-status=PENDING], li[data-status=RUNNING]"))
                        .isEmpty());

        JsonNode doc = api.get("/v1/documents/" + id).json();
        assertThat(browser.findElement(row)
                        .findElement(By.cssSelector(".status"))
                        .getText())
                .isEqualTo("READY");
        List<WebElement> shown = browser.findElement(row).findElements(By.cssSelector("ul.stages > li"));
        assertThat(shown)
                .extracting(li -> li.getDomAttribute("data-stage"))
                .containsExactlyElementsOf(names(doc.get("stages"), "name"));
        assertThat(shown)
                .extracting(li -> li.getDomAttribute("data-status"))
                .containsExactlyElementsOf(names(doc.get("stages"), "status"));
        int chunks = doc.get("chunkCount").asInt();
        assertThat(stageElement(row, "embed")
                        .findElement(By.cssSelector(".stage-status"))
                        .getText())
                .isEqualTo("DONE " + chunks + "/" + chunks);
    }

    @Test
    void anExtractiveAnswerOpensEachCitationHighlightedInTheSource() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        StringBuilder text = new StringBuilder("The lighthouse of Skerry Point " + marker + "\n\n");
        String[] trades = {"herring", "slate", "wool", "whisky", "kelp", "timber", "peat", "barley"};
        for (int i = 0; i < 24; i++) {
            text.append("In the ledger for year ")
                    .append(1860 + i)
                    .append(" the harbour master noted ")
                    .append(i + 3)
                    .append(" boats carrying ")
                    .append(trades[i % trades.length])
                    .append(" past the point.\n\n");
        }
        text.append(
                "The lighthouse keeper of Skerry Point was a woman named Agnes Brodie. She kept the lamp burning for "
                        + "forty-one winters and never once let it fail.\n\nIn 1887 a storm drove the schooner Marigold onto the rocks "
                        + "below the tower. Agnes Brodie rowed out alone and brought back six sailors.\n");
        UUID id = api.ingest(
                aText(text.toString()).titled("Skerry Point " + marker).build());

        browser.findElement(By.cssSelector("a[data-view=ask]")).click();
        By checkbox = By.id("ask-doc-" + id);
        until(() -> !browser.findElements(checkbox).isEmpty()
                && browser.findElement(checkbox).isEnabled());
        browser.findElement(checkbox).click();
        new Select(browser.findElement(By.id("ask-strategy"))).selectByValue("extractive");
        browser.findElement(By.id("ask-question")).sendKeys("Who rowed out to the schooner Marigold in 1887?");
        browser.findElement(By.cssSelector("#ask-form button[type=submit]")).click();

        until(() -> !browser.findElements(By.cssSelector("button.citation")).isEmpty());
        UUID questionId = UUID.fromString(browser.findElement(By.id("answer")).getDomAttribute("data-question-id"));
        JsonNode question = api.get("/v1/questions/" + questionId).json();
        assertThat(question.get("status").asString()).isEqualTo("DONE");
        // Without a model, the name found here is not certain enough for a short answer: the answer is the
        // passages to read, shown as quotes in their order (not as one run of text), the best one first.
        assertThat(question.get("answerKind").asString()).isEqualTo("passage");
        List<String> shown =
                browser.findElements(By.cssSelector("#answer-text[data-kind=passage] blockquote.passage")).stream()
                        .map(e -> e.getText().replaceAll("\\s+", " ").strip())
                        .toList();
        assertThat(shown)
                .containsExactlyElementsOf(names(question.get("citations"), "quote").stream()
                        .map(q -> q.replaceAll("\\s+", " ").strip())
                        .toList());
        assertThat(shown.getFirst()).contains("Agnes Brodie rowed out alone");
        assertThat(browser.findElement(By.id("answer-text")).getText()).contains("No short answer was clear enough");

        // The timeline shows the stored trace, every step in order.
        List<String> traced =
                names(api.get("/v1/questions/" + questionId + "/trace").json().get("events"), "type");
        assertThat(browser.findElements(By.cssSelector("#timeline > li")))
                .extracting(li -> li.getDomAttribute("data-type"))
                .containsExactlyElementsOf(traced);
        assertThat(traced).contains("extractive.retrieve", "extractive.answer", "run.citations");
        assertThat(browser.findElement(By.id("ask-usage")).getText()).startsWith("Model calls 0");

        JsonNode citations = question.get("citations");
        List<WebElement> buttons = browser.findElements(By.cssSelector("button.citation"));
        assertThat(buttons).hasSize(citations.size());
        String source =
                api.get("/v1/documents/" + id + "/text").json().get("text").asString();
        for (int i = citations.size() - 1; i >= 0; i--) {
            JsonNode citation = citations.get(i);
            browser.findElements(By.cssSelector("button.citation")).get(i).click();
            String highlighted = (String) js("return [...document.querySelectorAll('#ask-source mark.active')]"
                    + ".map(m => m.textContent).join('')");
            assertThat(highlighted)
                    .as("citation %d", i + 1)
                    .isEqualTo(citation.get("quote").asString())
                    .isEqualTo(source.substring(
                            citation.get("start").asInt(), citation.get("end").asInt()));
            // Scrolled into the source pane's view, and focused for keyboard users.
            assertThat((Boolean) js("const m = document.querySelector('#ask-source mark.active');"
                            + "const box = m.closest('.source-text').getBoundingClientRect(); const r = m.getBoundingClientRect();"
                            + "return r.top >= box.top && r.bottom <= box.bottom + 1 && document.activeElement === m;"))
                    .isTrue();
        }
        js("window.scrollTo(0, document.getElementById('answer').getBoundingClientRect().top + window.scrollY - 260)");
        save("answer");

        // At a phone's width the views stack: nothing sticks out sideways.
        browser.manage().window().setSize(new Dimension(390, 844));
        try {
            assertThat((Boolean) js("return document.documentElement.scrollWidth <= window.innerWidth"))
                    .as(
                            "wider than the window: %s",
                            js("return [...document.querySelectorAll('body *')]"
                                    + ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
                                    + ".slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id).join(', ')"))
                    .isTrue();
            browser.findElements(By.cssSelector("button.citation")).getFirst().click();
            save("answer-phone");
        } finally {
            browser.manage().window().setSize(new Dimension(1440, 1100));
        }
    }

    @Test
    void aConversationPastedAsJsonShowsItsTurnsWithSpeakersAndSessionDates() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String title = "Pottery chat " + marker;
        browser.findElement(By.id("conversation-json")).sendKeys("""
                {"title": "%s", "sessions": [
                  {"dateTime": "1:56 pm on 8 May, 2023", "turns": [
                    {"speaker": "Caroline", "text": "I joined a pottery class (%s) last week."},
                    {"speaker": "Melanie", "text": "What did you make first?"}]},
                  {"dateTime": "7:55 pm on 9 June, 2023", "turns": [
                    {"speaker": "Caroline", "text": "A blue bowl for my mother."}]}]}
                """.formatted(title, marker));
        browser.findElement(By.cssSelector("#conversation-form button[type=submit]"))
                .click();

        By row = By.xpath("//tr[.//span[@class='doc-title' and text()='" + title + "']]");
        until(() -> !browser.findElements(row).isEmpty()
                && "READY".equals(browser.findElement(row).getDomAttribute("data-status")));
        UUID id = UUID.fromString(browser.findElement(row).getDomAttribute("data-id"));
        browser.findElement(row)
                .findElement(By.xpath(".//button[text()='Source']"))
                .click();
        until(() -> browser.findElements(By.cssSelector("#source-main .turn")).size() == 3);

        String text =
                api.get("/v1/documents/" + id + "/text").json().get("text").asString();
        JsonNode turns = api.get("/v1/documents/" + id + "/turns").json();
        List<WebElement> shown = browser.findElements(By.cssSelector("#source-main .turn"));
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            assertThat(shown.get(i).getDomAttribute("data-turn"))
                    .isEqualTo(turn.get("turnId").asString());
            assertThat(shown.get(i).getDomAttribute("data-speaker"))
                    .isEqualTo(turn.get("speaker").asString());
            assertThat(shown.get(i).getDomProperty("textContent"))
                    .isEqualTo(text.substring(
                            turn.get("start").asInt(), turn.get("end").asInt()));
        }
        assertThat(names(turns, "speaker")).containsExactly("Caroline", "Melanie", "Caroline");
        assertThat(browser.findElements(By.cssSelector("#source-main .session-header")))
                .extracting(e -> e.getDomProperty("textContent"))
                .containsExactly("[Session 1, 1:56 pm on 8 May, 2023]", "[Session 2, 7:55 pm on 9 June, 2023]");
        // The same speaker has the same colour.
        assertThat(shown.get(0).getDomAttribute("class")).isEqualTo(shown.get(2).getDomAttribute("class"));
        save("conversation-source");
    }

    @Test
    void theGraphViewColoursCommunitiesAndAChosenNodeShowsItsWordsInTheSource() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        // Twelve facts in two groups of six joined by one edge: more than the largest community (10) holds, so the
        // service splits them, by Leiden, into two communities.
        String[] quotes = {
            "Agnes Brodie kept the Skerry Point light",
            "Her lamp oil came from the harbour store",
            "The store belonged to Callum Reid",
            "Callum Reid sold oil by the gallon",
            "The gallon cost a shilling",
            "The light burned every night",
            "In 1887 the schooner Marigold struck the rocks",
            "Tobias Wren was the captain's son",
            "The crew of six clung to the mast",
            "The mast broke at dawn",
            "The Marigold carried slate",
            "The slate came from Easdale"
        };
        String text = String.join(". ", quotes) + ". (" + marker + ")";
        UUID id = api.ingest(aText(text).titled("Skerry graph " + marker).build());
        // The graph stage needs an LLM, which these tests run without: the graph is stored as that stage stores it.
        long graph = jdbc.sql(
                        "INSERT INTO graph (document_id, scope, chunk_tokens, status) VALUES (?, '', 8192, 'READY') RETURNING id")
                .param(id)
                .query(Long.class)
                .single();
        for (int i = 0; i < quotes.length; i++) {
            int start = text.indexOf(quotes[i]);
            jdbc.sql(
                            "INSERT INTO graph_node (graph_id, node_id, ordinal, type, content, start_offset, end_offset, chunk) VALUES (?, ?, ?, 'claim', ?, ?, ?, 0)")
                    .params(graph, "n" + i, i, "Fact " + (i + 1), start, start + quotes[i].length())
                    .update();
        }
        List<int[]> edges = new ArrayList<>();
        for (int group = 0; group < 2; group++) {
            for (int a = 0; a < 6; a++) {
                for (int b = a + 1; b < 6; b++) {
                    edges.add(new int[] {group * 6 + a, group * 6 + b});
                }
            }
        }
        edges.add(new int[] {5, 6});
        for (int i = 0; i < edges.size(); i++) {
            jdbc.sql(
                            "INSERT INTO graph_edge (graph_id, ordinal, source, target, relation, start_offset, end_offset, chunk) VALUES (?, ?, ?, ?, 'related to', 0, 12, 0)")
                    .params(graph, i, "n" + edges.get(i)[0], "n" + edges.get(i)[1])
                    .update();
        }
        JsonNode served = api.get("/v1/documents/" + id + "/graph").json();

        browser.findElement(By.cssSelector("a[data-view=graph]")).click();
        until(() -> !browser.findElements(By.cssSelector("#graph-document option[value='" + id + "']"))
                .isEmpty());
        new Select(browser.findElement(By.id("graph-document"))).selectByValue(id.toString());
        browser.findElement(By.cssSelector("#graph-form button[type=submit]")).click();
        until(() -> browser.findElements(By.cssSelector("#graph-canvas g.node")).size() == quotes.length);
        assertThat(browser.findElements(By.cssSelector("#graph-canvas line.edge")))
                .hasSize(edges.size());

        // One colour per community, as the service groups them.
        JsonNode communities = served.get("communities");
        assertThat(communities.size()).isEqualTo(2);
        List<String> colours = new ArrayList<>();
        for (JsonNode community : communities) {
            List<String> fills = new ArrayList<>();
            community
                    .get("nodes")
                    .forEach(node -> fills.add(browser.findElement(
                                    By.cssSelector("#graph-canvas g.node[data-node='" + node.asString() + "'] circle"))
                            .getDomAttribute("fill")));
            assertThat(fills).as("community %s", community.get("id")).containsOnly(fills.getFirst());
            colours.add(fills.getFirst());
        }
        assertThat(colours).doesNotHaveDuplicates();

        // Chosen from the keyboard: its content, and its words highlighted in the source.
        WebElement wreck = browser.findElement(By.cssSelector("#graph-canvas g.node[data-node='n6']"));
        js("arguments[0].focus()", wreck);
        new Actions(browser).sendKeys(Keys.ENTER).perform();
        until(() -> !browser.findElements(By.cssSelector("#graph-source mark.active"))
                .isEmpty());
        assertThat(browser.findElement(By.cssSelector("#graph-node h3")).getText())
                .isEqualTo("Fact 7");
        assertThat(
                        js(
                                "return [...document.querySelectorAll('#graph-source mark.active')].map(m => m.textContent).join('')"))
                .isEqualTo("In 1887 the schooner Marigold struck the rocks");
        save("graph");
    }

    @Test
    void aPdfsSourceMarksWherePagesBeginAndTheNoLlmNoticeIsSaidOnce() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        byte[] pdf = io.lorekeeper.support.TestFiles.pdf(List.of(
                List.of("The tide mill of Carew " + marker + " ground corn.", "It ran for four hundred years."),
                List.of("Its pond filled at every high tide.", "The wheel turned as the water ran out."),
                List.of("The mill was restored in 1972.")));
        Api.Response uploaded =
                api.upload("/v1/documents/files", "carew-" + marker + ".pdf", "application/pdf", pdf, Map.of());
        assertThat(uploaded.status()).as(uploaded.body()).isIn(200, 201, 202);
        UUID id = UUID.fromString(uploaded.json().get("id").asString());
        api.awaitDocument(id, "READY", WAIT);
        browser.findElement(By.id("documents-refresh")).click();
        By row = By.cssSelector("tr[data-id='" + id + "']");
        until(() -> !browser.findElements(row).isEmpty()
                && "READY".equals(browser.findElement(row).getDomAttribute("data-status")));

        // Without an LLM every memory is skipped for one reason: said once under the stages, not per stage.
        List<String> messages = new ArrayList<>();
        browser.findElement(row).findElements(By.cssSelector(".stage-message")).forEach(m -> messages.add(m.getText()));
        assertThat(messages).doesNotHaveDuplicates();
        long skipped = browser.findElement(row)
                .findElements(By.cssSelector("li[data-status=SKIPPED]"))
                .size();
        assertThat(skipped).isGreaterThan(1);
        assertThat(browser.findElement(row).findElements(By.cssSelector(".stage-message-shared")))
                .hasSize(1);

        browser.findElement(row)
                .findElement(By.xpath(".//button[text()='Source']"))
                .click();
        until(() -> browser.findElements(By.cssSelector("#source-main .page-marker"))
                        .size()
                == 3);
        assertThat(browser.findElements(By.cssSelector("#source-main .page-marker")))
                .extracting(m -> m.getDomAttribute("data-page"))
                .containsExactly("1", "2", "3");
        // each marker stands where its page begins in the canonical text
        JsonNode sections = api.get("/v1/documents/" + id).json().get("sections");
        String text =
                api.get("/v1/documents/" + id + "/text").json().get("text").asString();
        for (JsonNode section : sections) {
            if (section.get("kind").asString().equals("page")
                    && section.get("page").asInt() > 1) {
                String after = (String) js(
                        "const m = document.querySelector('#source-main .page-marker[data-page=\"' + arguments[0]"
                                + " + '\"]'); return m.nextSibling ? m.nextSibling.textContent : '';",
                        section.get("page").asString());
                assertThat(text.substring(section.get("start").asInt()).stripLeading())
                        .startsWith(after.strip()
                                .substring(0, Math.min(12, after.strip().length())));
            }
        }
        save("pdf-pages");
    }

    @Test
    void aRowRebuildsTheStageChosenAndDeletesItsDocument() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String title = "Ferry " + marker;
        UUID id = api.ingest(
                aText("The ferry " + marker + " crossed the Kyle twice a day. It carried the post and two cars.")
                        .titled(title)
                        .build());
        int chunks = api.get("/v1/documents/" + id).json().get("chunkCount").asInt();
        browser.findElement(By.id("documents-refresh")).click();
        By row = By.cssSelector("tr[data-id='" + id + "']");
        until(() -> !browser.findElements(row).isEmpty());

        int embeddedBefore = embeddings.textsEmbedded();
        new Select(browser.findElement(row).findElement(By.cssSelector(".reindex select"))).selectByValue("embed");
        browser.findElement(row)
                .findElement(By.xpath(".//button[text()='Reindex']"))
                .click();
        // The embed stage ran again over every chunk, and the row followed it back to READY.
        await().atMost(WAIT).until(() -> embeddings.textsEmbedded() >= embeddedBefore + chunks);
        until(() -> "READY".equals(browser.findElement(row).getDomAttribute("data-status"))
                && browser.findElement(row)
                        .findElements(By.cssSelector("li[data-status=PENDING], li[data-status=RUNNING]"))
                        .isEmpty());
        assertThat(api.get("/v1/documents/" + id).json().get("status").asString())
                .isEqualTo("READY");

        browser.findElement(row)
                .findElement(By.xpath(".//button[text()='Delete']"))
                .click();
        assertThat(browser.switchTo().alert().getText()).contains(title);
        browser.switchTo().alert().accept();
        until(() -> browser.findElements(row).isEmpty());
        assertThat(api.get("/v1/documents/" + id).status()).isEqualTo(404);
    }

    @Test
    void anEvaluationStartedFromTheFormEndsInItsReportTableAndChart() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String document = "{\"title\": \"Nareth " + marker
                + "\", \"text\": \"The lighthouse keeper of Nareth Point was Oswin Clay " + marker
                + ". The village baker sold rye bread every morning.\"}";
        browser.findElement(By.cssSelector("a[data-view=evaluations]")).click();
        until(() -> !browser.findElements(By.id("eval-strategy-extractive")).isEmpty());
        new Select(browser.findElement(By.id("eval-dataset"))).selectByValue("jsonl");
        browser.findElement(By.id("eval-items"))
                .sendKeys("{\"id\": \"keeper\", \"document\": " + document
                        + ", \"question\": \"Who was the lighthouse keeper of Nareth Point?\","
                        + " \"answer\": \"Oswin Clay\", \"category\": \"people\", \"evidence\": [\"The lighthouse keeper of Nareth Point was Oswin Clay "
                        + marker + ".\"]}\n"
                        + "{\"id\": \"baker\", \"document\": " + document
                        + ", \"question\": \"What did the village baker sell?\","
                        + " \"answer\": \"rye bread\", \"category\": \"things\"}\n");
        browser.findElement(By.id("eval-probe-search-hybrid")).click();
        assertThat(browser.findElement(By.id("eval-strategy-extractive")).isSelected())
                .isTrue();
        browser.findElement(By.cssSelector("#eval-form button[type=submit]")).click();

        until(() -> browser.findElement(By.id("eval-progress-text")).getText().startsWith("DONE"));
        String recent =
                browser.findElement(By.cssSelector("#eval-recent button")).getDomAttribute("data-id");
        JsonNode run = api.get("/v1/evaluations/" + recent).json();
        assertThat(run.get("status").asString()).isEqualTo("DONE");
        assertThat(browser.findElement(By.id("eval-progress-text")).getText()).startsWith("DONE: 4 of 4 answers");
        assertThat(browser.findElement(By.id("eval-progress")).getDomProperty("value"))
                .isEqualTo("4");

        List<String> expected = new ArrayList<>();
        run.get("report")
                .get("summary")
                .forEach(r -> expected.add(r.get("strategy").asString() + " "
                        + r.get("category").asString() + " " + r.get("n").asInt()));
        List<String> shown = new ArrayList<>();
        for (WebElement tr : browser.findElements(By.cssSelector("#eval-report tbody tr"))) {
            List<WebElement> cells = tr.findElements(By.cssSelector("th, td"));
            shown.add(cells.get(0).getText() + " " + cells.get(1).getText() + " "
                    + cells.get(2).getText());
        }
        assertThat(shown)
                .containsExactlyElementsOf(expected)
                .contains("extractive overall 2", "search:hybrid overall 2");
        // Per strategy's overall row: its score bar, and its evidence-recall bar where there is one.
        List<String> bars = new ArrayList<>();
        browser.findElements(By.cssSelector("#eval-chart rect title"))
                .forEach(t -> bars.add(t.getDomProperty("textContent")));
        assertThat(bars)
                .anyMatch(b -> b.startsWith("extractive score: "))
                .anyMatch(b -> b.startsWith("search:hybrid "));
        js("document.getElementById('eval-run').scrollIntoView()");
        save("evaluation");
    }

    @Test
    void aSingleStrategysChartIsDrawnAtAReadableHeight() throws IOException {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        browser.findElement(By.cssSelector("a[data-view=evaluations]")).click();
        until(() -> !browser.findElements(By.id("eval-strategy-extractive")).isEmpty());
        new Select(browser.findElement(By.id("eval-dataset"))).selectByValue("jsonl");
        browser.findElement(By.id("eval-items"))
                .sendKeys("{\"id\": \"keeper\", \"document\": {\"title\": \"Lorn " + marker
                        + "\", \"text\": \"The keeper of Lorn light was Ida Vane " + marker + ".\"},"
                        + " \"question\": \"Who was the keeper of Lorn light?\", \"answer\": \"Ida Vane\"}\n");
        browser.findElement(By.cssSelector("#eval-form button[type=submit]")).click();
        until(() -> browser.findElement(By.id("eval-progress-text")).getText().startsWith("DONE"));
        until(() -> !browser.findElements(By.cssSelector("#eval-chart svg")).isEmpty());

        long bars = browser.findElements(By.cssSelector("#eval-chart .label")).size();
        Number height = (Number) js("return document.querySelector('#eval-chart svg').getBoundingClientRect().height");
        assertThat(bars).isEqualTo(1);
        assertThat(height.doubleValue())
                .as("one strategy's chart, drawn at most one and a half times its size")
                .isBetween(150.0, 400.0);
        save("evaluation-one-strategy");
    }

    @Test
    void aRefusedQuestionPointsAtTheFieldItNames() throws IOException {
        UUID id = api.ingest(aText("The ferry " + UUID.randomUUID() + " crossed the Kyle twice a day.")
                .titled("Kyle ferry")
                .build());
        Map<String, Object> refused = Map.of(
                "documentIds",
                List.of(id),
                "question",
                "How often did the ferry cross?",
                "strategy",
                "extractive",
                "options",
                Map.of("budget", Map.of("maxSeconds", 999_999)));
        JsonNode problem = api.post("/v1/questions", refused).json();
        assertThat(problem.get("field").asString()).isEqualTo("options.budget.maxSeconds");

        browser.findElement(By.cssSelector("a[data-view=ask]")).click();
        By checkbox = By.id("ask-doc-" + id);
        until(() -> !browser.findElements(checkbox).isEmpty()
                && browser.findElement(checkbox).isEnabled());
        browser.findElement(checkbox).click();
        browser.findElement(By.id("ask-question")).sendKeys("How often did the ferry cross?");
        browser.findElement(By.cssSelector("#ask-more > summary")).click();
        browser.findElement(By.id("budget-seconds")).sendKeys("999999");
        browser.findElement(By.cssSelector("#ask-form button[type=submit]")).click();

        By error = By.cssSelector("#ask-form .error");
        until(() -> browser.findElement(error).isDisplayed());
        assertThat(browser.findElement(error).getText())
                .isEqualTo(problem.get("detail").asString());
        assertThat(browser.switchTo().activeElement().getDomAttribute("id")).isEqualTo("budget-seconds");
        assertThat(browser.findElement(By.id("budget-seconds")).getDomAttribute("aria-invalid"))
                .isEqualTo("true");
    }

    @Test
    void aRefusedUploadShowsTheProblemDetail() throws IOException {
        Path file = files.resolve("minutes-" + UUID.randomUUID().toString().substring(0, 8) + ".pdf");
        Files.write(file, "%PDF-1.4 not really".getBytes(StandardCharsets.US_ASCII));
        String expected = api.upload(
                        "/v1/documents/files",
                        file.getFileName().toString(),
                        "application/pdf",
                        Files.readAllBytes(file),
                        Map.of())
                .json()
                .get("detail")
                .asString();

        browser.findElement(By.id("upload-file")).sendKeys(file.toAbsolutePath().toString());
        browser.findElement(By.cssSelector("#upload-form button[type=submit]")).click();

        By error = By.cssSelector("#upload-form .error");
        until(() -> browser.findElement(error).isDisplayed());
        assertThat(browser.findElement(error).getText())
                .isEqualTo(expected)
                .contains(file.getFileName().toString());
        assertThat(browser.findElement(By.id("upload-file")).getDomAttribute("aria-invalid"))
                .isEqualTo("true");
        assertThat(browser.switchTo().activeElement().getDomAttribute("id")).isEqualTo("upload-file");
    }

    private String stageStatus(By row, String stage) {
        List<WebElement> found =
                browser.findElement(row).findElements(By.cssSelector("li[data-stage='" + stage + "']"));
        return found.isEmpty() ? null : found.getFirst().getDomAttribute("data-status");
    }

    private WebElement stageElement(By row, String stage) {
        return browser.findElement(row).findElement(By.cssSelector("li[data-stage='" + stage + "']"));
    }

    private static List<String> names(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.get(field).asString()));
        return out;
    }

    private static Object js(String script, Object... arguments) {
        return ((JavascriptExecutor) browser).executeScript(script, arguments);
    }

    private static void until(java.util.function.BooleanSupplier condition) {
        new WebDriverWait(browser, WAIT, Duration.ofMillis(50))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> condition.getAsBoolean());
    }

    private static void save(String name) throws IOException {
        Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }
}
