package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's table of DynamoDB calls by the key shapes they touched. */
class CostReportTest {

    private static final Account FETCH = Account.function("fetch");

    @Test
    void render_whenCallsByShape_listsThemPerUrlMostFirst() {
        Usage.Call rate = Usage.shapes(FETCH, "PutItem", List.of(new Usage.Key("sites", "RATE#a.example")));
        Usage.Call done = Usage.shapes(FETCH, "TransactWriteItems", List.of(new Usage.Key("sites", "F#a.example"),
                new Usage.Key("sites", "COUNT#a.example"), new Usage.Key("sites", "F#a.example")));
        Usage usage = new Usage(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(rate, 50L, done, 200L));

        String text = new CostReport("phase", usage, 100, "fetched URL", AwsPrices.US_EAST_1,
                AwsPrices.Architecture.ARM64).render();

        List<String> lines = text.lines().toList();
        int heading = lines.indexOf(lines.stream().filter(l -> l.startsWith("DynamoDB calls by account")).findFirst()
                .orElseThrow());
        assertEquals("          2  fetch          TransactWriteItems sites:COUNT#<site>+sites:F#<site>",
                lines.get(heading + 1));
        assertEquals("        0.5  fetch          PutItem sites:RATE#<site>", lines.get(heading + 2));
    }

    @Test
    void render_whenTheSweepCalls_saysTheCallsWithoutTheScheduleDriven() {
        Usage usage = new Usage(Map.of(
                new Usage.Call(FETCH, "DynamoDB", "GetItem"), new Usage.Calls(300, 300, 150, 0, 0),
                new Usage.Call(Account.function("sweep"), "DynamoDB", "Query"), new Usage.Calls(100, 100, 50, 0, 0),
                new Usage.Call(Account.eventSource("fetch"), "SQS FIFO", "ReceiveMessage (empty)"),
                new Usage.Calls(50, 50, 0, 0, 0)), Map.of(), Map.of());

        String text = new CostReport("phase", usage, 100, "fetched URL", AwsPrices.US_EAST_1,
                AwsPrices.Architecture.ARM64).render();

        assertTrue(text.contains("requests: 4.5 AWS calls"), text);
        assertTrue(text.contains("  1.5 of them schedule-driven (below), so 3 AWS calls without them"), text);
    }

    @Test
    void render_whenNoCallsByShape_hasNoSuchTable() {
        String text = new CostReport("phase", Usage.NONE, 100, "fetched URL", AwsPrices.US_EAST_1,
                AwsPrices.Architecture.ARM64).render();

        assertFalse(text.contains("DynamoDB calls by account"));
        assertTrue(text.contains("requests: 0 AWS calls"));
    }

    @Test
    void shapes_whenNoKeyWasCharged_saysSo() {
        assertEquals("Query (no key)", Usage.shapes(FETCH, "Query", List.of()).operation());
    }
}
