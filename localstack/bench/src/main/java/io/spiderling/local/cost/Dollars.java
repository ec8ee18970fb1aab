package io.spiderling.local.cost;

import io.spiderling.local.cost.AwsPrices.Architecture;
import java.util.Map;

/**
 * What a {@link Usage} costs at list prices, by service.
 *
 * @param dynamoDbWrites write request units
 * @param dynamoDbReads read request units
 * @param sqs requests as billed (64 KB chunks), standard and FIFO at their prices
 * @param s3PutClass PUT, COPY, POST and LIST requests
 * @param s3GetClass GET, HEAD and every other request but DELETE
 * @param lambdaRequests invocations
 * @param lambdaDuration billed GB-seconds at the architecture's price
 * @param logs CloudWatch Logs ingestion of what the invocations logged
 * @param apiGateway HTTP API requests
 */
public record Dollars(double dynamoDbWrites, double dynamoDbReads, double sqs, double s3PutClass, double s3GetClass,
        double lambdaRequests, double lambdaDuration, double logs, double apiGateway) {

    public static Dollars of(Usage usage, AwsPrices prices, Architecture architecture) {
        double wru = 0;
        double rru = 0;
        long sqsStandard = 0;
        long sqsFifo = 0;
        long s3Put = 0;
        long s3Get = 0;
        long api = 0;
        for (Map.Entry<Usage.Call, Usage.Calls> e : usage.calls().entrySet()) {
            Usage.Calls c = e.getValue();
            switch (e.getKey().service()) {
                case "DynamoDB" -> {
                    wru += c.writeUnits();
                    rru += c.readUnits();
                }
                case "SQS standard" -> sqsStandard += c.billedRequests();
                case "SQS FIFO" -> sqsFifo += c.billedRequests();
                case "S3" -> {
                    switch (Billing.s3Class(e.getKey().operation())) {
                        case PUT -> s3Put += c.billedRequests();
                        case GET -> s3Get += c.billedRequests();
                        case FREE -> { }
                    }
                }
                case "API Gateway" -> api += c.billedRequests();
                default -> { }
            }
        }
        Usage.Invocations lambda = usage.totalInvocations();
        return new Dollars(prices.dynamoDb(wru, 0), prices.dynamoDb(0, rru), prices.sqs(sqsStandard, sqsFifo),
                prices.s3Requests(s3Put, 0), prices.s3Requests(0, s3Get), prices.lambdaRequests(lambda.count()),
                prices.lambdaDuration(lambda.gbSeconds(), architecture), prices.logs(lambda.logBytes()),
                prices.apiGateway(api));
    }

    public double dynamoDb() {
        return dynamoDbWrites + dynamoDbReads;
    }

    public double s3() {
        return s3PutClass + s3GetClass;
    }

    public double lambda() {
        return lambdaRequests + lambdaDuration;
    }

    public double total() {
        return dynamoDb() + sqs + s3() + lambda() + logs + apiGateway;
    }

    /** Scaled to a million of what {@code count} counts (URLs). */
    public Dollars perMillion(long count) {
        double f = count == 0 ? 0 : 1e6 / count;
        return new Dollars(dynamoDbWrites * f, dynamoDbReads * f, sqs * f, s3PutClass * f, s3GetClass * f,
                lambdaRequests * f, lambdaDuration * f, logs * f, apiGateway * f);
    }
}
