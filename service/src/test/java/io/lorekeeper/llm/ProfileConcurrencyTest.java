package io.lorekeeper.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lorekeeper.security.CurrentTenant;
import io.lorekeeper.support.LlmIntegrationTest;

/**
 * The gateway holds every call to a profile's {@code max-concurrency} (4 by default): with six
 * questions calling the model at once, four reach it and two wait until one of those ends.
 */
@LlmIntegrationTest
class ProfileConcurrencyTest {

    @Autowired
    LlmGateway gateway;

    @Autowired
    ScriptedChatModel model;

    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void forgetEarlierTestsCalls() {
        model.reset();
    }

    @AfterEach
    void releaseAndReset() {
        release.countDown();
        model.reset();
    }

    @Test
    void callsBeyondTheProfilesConcurrencyWaitForAFreeSlot() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        model.on("test/echo").reply(call -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inFlight.decrementAndGet();
            }
            return "pong";
        });
        List<String> replies = Collections.synchronizedList(new ArrayList<>());
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            LlmSession session =
                    gateway.open(CallScope.question(CurrentTenant.DEFAULT, UUID.randomUUID()), Budget.unlimited());
            Map<String, Object> variables =
                    Map.of("word", "pong", "nonce", UUID.randomUUID().toString());
            callers.add(Thread.ofPlatform()
                    .name("caller-" + i)
                    .start(() -> replies.add(session.text(Role.ANSWERER, "test/echo", variables))));
        }

        // four callers are inside the model (waiting for the release, with a timeout), the other two park on the
        // profile's limit (without one)
        await().atMost(Duration.ofSeconds(30))
                .until(() -> inFlight.get() == 4
                        && callers.stream()
                                        .filter(t -> t.getState() == Thread.State.WAITING)
                                        .count()
                                == 2);
        assertThat(model.calls("test/echo")).hasSize(4);

        release.countDown();
        for (Thread caller : callers) {
            caller.join(Duration.ofSeconds(30));
        }

        assertThat(replies).hasSize(6).containsOnly("pong");
        assertThat(model.calls("test/echo")).hasSize(6);
        assertThat(mostInFlight.get()).isEqualTo(4);
    }
}
