package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.local.cost.AwsPrices.Architecture;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class BillingTest {

    private static final AwsPrices PRICES = AwsPrices.US_EAST_1;

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/request-billing.csv", numLinesToSkip = 1)
    void rule_whenTableCase_countsAsTheServiceBills(String rule, String function, long input, double expected) {
        double actual = switch (function) {
            case "sqsRequests" -> Billing.sqsRequests(input);
            case "lambdaBilledMillis" -> Billing.lambdaBilledMillis(input);
            case "gbSeconds512" -> Billing.gbSeconds(input, 512);
            case "gbSeconds1024" -> Billing.gbSeconds(input, 1024);
            default -> throw new IllegalArgumentException(function);
        };

        assertEquals(expected, actual, 1e-12, rule);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/prices.csv", numLinesToSkip = 1)
    void prices_whenTableCase_giveListDollars(String rule, String quantity, double count, double expected) {
        double dollars = switch (quantity) {
            case "dynamoDbWriteUnits" -> PRICES.dynamoDb(count, 0);
            case "dynamoDbReadUnits" -> PRICES.dynamoDb(0, count);
            case "s3PutClass" -> PRICES.s3Requests((long) count, 0);
            case "s3GetClass" -> PRICES.s3Requests(0, (long) count);
            case "s3StorageBytes" -> PRICES.s3StoragePerMonth((long) count);
            case "sqsStandard" -> PRICES.sqs((long) count, 0);
            case "sqsFifo" -> PRICES.sqs(0, (long) count);
            case "lambdaRequests" -> PRICES.lambdaRequests((long) count);
            case "lambdaGbSecondsArm" -> PRICES.lambdaDuration(count, Architecture.ARM64);
            case "lambdaGbSecondsX86" -> PRICES.lambdaDuration(count, Architecture.X86_64);
            case "logBytes" -> PRICES.logs((long) count);
            case "apiGatewayRequests" -> PRICES.apiGateway((long) count);
            default -> throw new IllegalArgumentException(quantity);
        };

        assertEquals(expected, dollars, 1e-12, rule);
    }

    @Test
    void prices_whenRead_areDatedTheDayTheyWereChecked() {
        assertEquals(LocalDate.of(2026, 11, 24), PRICES.asOf());
    }

    @Test
    void s3Class_whenOperationGiven_isItsPriceClass() {
        assertEquals(Billing.S3Class.PUT, Billing.s3Class("PutObject"));
        assertEquals(Billing.S3Class.PUT, Billing.s3Class("ListObjectsV2"));
        assertEquals(Billing.S3Class.PUT, Billing.s3Class("CopyObject"));
        assertEquals(Billing.S3Class.GET, Billing.s3Class("GetObject"));
        assertEquals(Billing.S3Class.GET, Billing.s3Class("HeadObject"));
        assertEquals(Billing.S3Class.FREE, Billing.s3Class("DeleteObject"));
    }

    @Test
    void lambdaPlatformLogBytes_whenComputed_isThreeLinesOfAFewHundredBytes() {
        assertTrue(Billing.LAMBDA_PLATFORM_LOG_BYTES > 200 && Billing.LAMBDA_PLATFORM_LOG_BYTES < 320,
                "START, END and REPORT: " + Billing.LAMBDA_PLATFORM_LOG_BYTES);
    }

    @Test
    void dollars_whenUsageGiven_pricesEachServiceAndScalesPerMillion() {
        Account fetch = Account.function("fetch");
        Usage usage = new Usage(Map.of(
                new Usage.Call(fetch, "DynamoDB", "PutItem"), new Usage.Calls(2_000, 2_000, 0, 4_000, 0),
                new Usage.Call(fetch, "DynamoDB", "GetItem"), new Usage.Calls(1_000, 1_000, 8_000, 0, 0),
                new Usage.Call(fetch, "SQS FIFO", "SendMessageBatch"), new Usage.Calls(100, 100, 0, 0, 0),
                new Usage.Call(Account.eventSource("fetch"), "SQS standard", "ReceiveMessage"),
                new Usage.Calls(50, 60, 0, 0, 0),
                new Usage.Call(fetch, "S3", "PutObject"), new Usage.Calls(1_000, 1_000, 0, 0, 0),
                new Usage.Call(fetch, "S3", "GetObject"), new Usage.Calls(500, 500, 0, 0, 0),
                new Usage.Call(fetch, "S3", "DeleteObject"), new Usage.Calls(9, 9, 0, 0, 0),
                new Usage.Call(Account.function("ingest"), "API Gateway", "HTTP API request"),
                new Usage.Calls(1, 1, 0, 0, 0)),
                Map.of(fetch, new Usage.Invocations(100, 20_000, 10.0, 1_073_741_824L)), Map.of());

        Dollars d = Dollars.of(usage, PRICES, Architecture.ARM64);

        assertEquals(4_000 * 0.625e-6, d.dynamoDbWrites(), 1e-12);
        assertEquals(8_000 * 0.125e-6, d.dynamoDbReads(), 1e-12);
        assertEquals(100 * 0.50e-6 + 60 * 0.40e-6, d.sqs(), 1e-12);
        assertEquals(1_000 * 0.005e-3, d.s3PutClass(), 1e-12);
        assertEquals(500 * 0.0004e-3, d.s3GetClass(), 1e-12);
        assertEquals(100 * 0.20e-6, d.lambdaRequests(), 1e-12);
        assertEquals(10 * 0.0000133334, d.lambdaDuration(), 1e-12);
        assertEquals(0.50, d.logs(), 1e-12);
        assertEquals(1e-6, d.apiGateway(), 1e-12);
        assertEquals(d.total() * 1e6 / 1_000, d.perMillion(1_000).total(), 1e-9);
    }
}
