package io.lorekeeper.console;

import static io.lorekeeper.llm.FakeOpenAi.completion;
import static io.lorekeeper.support.TestDocuments.aText;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.llm.FakeOpenAi;
import io.lorekeeper.llm.FakeOpenAiTest;
import io.lorekeeper.support.Api;
import io.lorekeeper.support.BuildDirectory;

/**
 * The console with a model that streams (the OpenAI stand-in): the answer grows in the answer box
 * before the checked answer replaces it, the timeline keeps its newest step in view, and follow-ups
 * asked in a thread are listed in order with how each was read. Chromium as in {@link ConsoleBrowserTest}.
 */
@FakeOpenAiTest
class ConsoleStreamingBrowserTest {

    private static final Path CHROMIUM = Path.of(System.getProperty("lorekeeper.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER =
            Path.of(System.getProperty("lorekeeper.chromedriver", "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = BuildDirectory.PATH.resolve("screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ANSWER =
            "Agnes Brodie rowed out alone in the storm of 1887 and brought back six sailors from the Marigold.";

    private static ChromeDriver browser;
    private static Path profile;

    @Autowired
    Api api;

    private final FakeOpenAi fake = FakeOpenAi.get();

    @BeforeAll
    static void startBrowser() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present && System.getenv("CI") == null) {
            Assumptions.abort("no " + CHROMIUM + " / " + CHROMEDRIVER + ": run scripts/test.sh, which installs them");
        }
        assertThat(present)
                .as("chromium and chromedriver must be installed under CI")
                .isTrue();
        profile = Files.createTempDirectory("lk-chromium-");
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
        browser = new ChromeDriver(
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(CHROMEDRIVER.toFile())
                        .usingAnyFreePort()
                        .build(),
                options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (Stream<Path> walk = Files.walk(profile)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void theAnswerGrowsAsItIsWrittenAndTheTimelineFollowsTheNewestStep() throws IOException {
        UUID doc = ingest("In 1887 a storm drove the schooner Marigold onto the rocks. Agnes Brodie rowed out alone"
                + " and brought back six sailors.");
        fake.onTask("rag/answer", completion("""
                {"answer": "%s", "confidence": 0.9, "choice": null,
                 "evidence": [{"passage": 1, "quote": "Agnes Brodie rowed out alone"}]}""".formatted(ANSWER)).streamedOver(Duration.ofMillis(3000)));
        openAsk(doc);
        // a short timeline box, so that a few steps overflow it and following them matters
        js("document.getElementById('timeline').style.maxHeight = '70px'");
        // every text the draft shows, as it changes, and whether it was final by then
        js(
                "window.drafts = []; new MutationObserver(() => { const d = document.getElementById('answer-draft');"
                        + " if (d) window.drafts.push({ text: d.textContent, final: d.classList.contains('answer-final') }); })"
                        + ".observe(document.getElementById('answer-body'), { childList: true, subtree: true, characterData: true });");
        browser.findElement(By.id("ask-question")).sendKeys("Who rowed out to the Marigold?");
        browser.findElement(By.cssSelector("#ask-form button[type=submit]")).click();

        until(() -> !browser.findElements(By.cssSelector("button.citation")).isEmpty());

        @SuppressWarnings("unchecked")
        List<java.util.Map<String, Object>> drafts = (List<java.util.Map<String, Object>>) js("return window.drafts");
        List<String> growing = drafts.stream()
                .filter(d -> !Boolean.TRUE.equals(d.get("final")))
                .map(d -> (String) d.get("text"))
                .filter(text -> !text.isEmpty())
                .distinct()
                .toList();
        assertThat(growing)
                .as("the draft before the final answer: several lengths, each a beginning of the answer")
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(text -> assertThat(ANSWER).startsWith(text));
        assertThat(growing.getFirst().length()).isLessThan(ANSWER.length());
        assertThat(browser.findElement(By.id("answer-text")).getText()).isEqualTo(ANSWER);
        // the timeline's last step is in view: scrolled to its bottom, no "new steps below" button shown
        assertThat(
                        (Boolean)
                                js(
                                        "const t = document.getElementById('timeline');"
                                                + " return t.scrollHeight > t.clientHeight && t.scrollHeight - t.scrollTop - t.clientHeight < 24;"))
                .isTrue();
        assertThat(browser.findElement(By.cssSelector(".timeline-more")).isDisplayed())
                .isFalse();
        assertThat(browser.findElements(By.cssSelector("#timeline > li")))
                .extracting(li -> li.getDomAttribute("data-type"))
                .contains("answer.final")
                .doesNotContain("answer.delta");
        save("streamed-answer");
    }

    @Test
    void followUpsInAThreadAreListedInOrderWithHowEachWasRead() throws IOException {
        UUID doc = ingest("Estella was the ward of Miss Havisham. Jaggers said Estella's mother was Molly.");
        fake.onTask("rag/answer", completion("""
                {"answer": "Molly, Jaggers's housekeeper", "confidence": 0.8, "choice": null,
                 "evidence": [{"passage": 1, "quote": "Estella's mother was Molly"}]}"""));
        fake.onTask("thread/rewrite", completion("Who is Estella's mother?"));
        openAsk(doc);
        browser.findElement(By.id("ask-follow-up")).click();
        browser.findElement(By.id("ask-question")).sendKeys("Who is Estella?");
        browser.findElement(By.cssSelector("#ask-form button[type=submit]")).click();
        until(() -> browser.findElements(By.cssSelector("#thread-turns > li")).size() == 1);
        browser.findElement(By.id("ask-question")).clear();
        browser.findElement(By.id("ask-question")).sendKeys("Who is her mother?");
        browser.findElement(By.cssSelector("#ask-form button[type=submit]")).click();
        until(() -> browser.findElements(By.cssSelector("#thread-turns > li")).size() == 2);

        var turns = browser.findElements(By.cssSelector("#thread-turns > li"));
        assertThat(turns.get(0).findElement(By.cssSelector(".thread-question")).getText())
                .endsWith("Who is Estella?");
        assertThat(turns.get(1).findElement(By.cssSelector(".thread-question")).getText())
                .endsWith("Who is her mother?");
        assertThat(turns.get(1).findElement(By.cssSelector(".thread-rewrite")).getText())
                .isEqualTo("Asked as: Who is Estella's mother?");
        assertThat(turns.get(1).findElement(By.cssSelector(".thread-answer")).getText())
                .isEqualTo("Molly, Jaggers's housekeeper");
        turns.get(1).findElement(By.cssSelector("button.thread-citation")).click();
        until(() ->
                !browser.findElements(By.cssSelector("#ask-source mark.active")).isEmpty());
        assertThat(browser.findElement(By.cssSelector("#ask-source mark.active"))
                        .getText())
                .isEqualTo("Estella's mother was Molly");
        save("thread");
    }

    private void openAsk(UUID doc) {
        browser.get("about:blank");
        browser.get(api.uri("/#ask").toString());
        By checkbox = By.id("ask-doc-" + doc);
        until(() -> !browser.findElements(checkbox).isEmpty()
                && browser.findElement(checkbox).isEnabled());
        browser.findElement(checkbox).click();
        new Select(browser.findElement(By.id("ask-strategy"))).selectByValue("rag");
    }

    private UUID ingest(String text) {
        fake.onTask("gam/memo", completion("{\"memo\": \"A note.\"}"));
        fake.onTask("gam/page-header", completion("{\"header\": \"An excerpt.\"}"));
        fake.onTask("mindgraph/build", completion("{\"operations\": []}"));
        UUID id = api.ingest(aText(text)
                .titled("Streaming " + UUID.randomUUID().toString().substring(0, 8))
                .build());
        fake.reset();
        return id;
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
