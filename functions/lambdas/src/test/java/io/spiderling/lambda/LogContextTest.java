package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.Context;
import io.spiderling.lambda.internal.LogContext;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LogContextTest {

    @Test
    void scopes_whenClosed_restoreWhatWasThereBefore() {
        try (LogContext.Scope invocation = LogContext.invocation("fetch", context("req-1"))) {
            try (LogContext.Scope first = LogContext.item("b1", "h1", "s1")) {
                try (LogContext.Scope inner = LogContext.item("b2", null, null)) {
                    assertEquals(Map.of("stage", "fetch", "requestId", "req-1", "batchId", "b2"),
                            LogContext.current());
                }
                assertEquals(Map.of("stage", "fetch", "requestId", "req-1", "batchId", "b1", "urlHash", "h1",
                        "site", "s1"), LogContext.current());
            }
            assertEquals(Map.of("stage", "fetch", "requestId", "req-1"), LogContext.current());
        }
        assertEquals(Map.of(), LogContext.current());
    }

    @Test
    void invocation_whenAnEarlierItemsFieldsWereLeft_clearsThemForItsSpan() {
        try (LogContext.Scope leftOver = LogContext.item("old-batch", "old-hash", "old-site");
                LogContext.Scope invocation = LogContext.invocation("notify", null)) {
            assertEquals(Map.of("stage", "notify"), LogContext.current());
        }
    }

    @Test
    void resume_onAnotherThread_setsExactlyTheHandedOverFields() throws Exception {
        AtomicReference<Map<String, String>> seen = new AtomicReference<>();
        AtomicReference<Map<String, String>> after = new AtomicReference<>();
        try (LogContext.Scope invocation = LogContext.invocation("fetch", context("req-2"))) {
            Map<String, String> handed = LogContext.current();
            Thread lane = Thread.ofVirtual().unstarted(() -> {
                try (LogContext.Scope stray = LogContext.item("stray", "stray", "stray")) {
                    try (LogContext.Scope resumed = LogContext.resume(handed)) {
                        seen.set(LogContext.current());
                    }
                    after.set(LogContext.current());
                }
            });
            lane.start();
            lane.join();
        }
        assertEquals(Map.of("stage", "fetch", "requestId", "req-2"), seen.get());
        assertEquals("stray", after.get().get("batchId"));
    }

    private static Context context(String requestId) {
        return (Context) Proxy.newProxyInstance(Context.class.getClassLoader(), new Class<?>[] {Context.class},
                (proxy, method, args) -> method.getName().equals("getAwsRequestId") ? requestId : null);
    }
}
