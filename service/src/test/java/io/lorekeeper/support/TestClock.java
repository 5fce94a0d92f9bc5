package io.lorekeeper.support;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The system clock, except that a test can move it forward: a question's ten-minute wall-time
 * limit then runs out at once. {@link #reset()} puts it back.
 */
public class TestClock implements InstantSource {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    public void advance(Duration by) {
        offset.accumulateAndGet(by, Duration::plus);
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @TestConfiguration(proxyBeanMethods = false)
    public static class Config {
        @Bean
        @Primary
        TestClock testClock() {
            return new TestClock();
        }
    }
}
