package io.spiderling.local;

import static io.spiderling.local.LocalApi.awaitDone;
import static io.spiderling.local.LocalApi.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A site that may be asked once every 1.25 seconds, 20 of its URLs in one batch, and a fetch queue that dead-letters a
 * message after 3 receives. The rate limiter refuses a slot more than a second away, so most jobs find the site's next
 * slot too far and go back to the frontier, many of them more than three times; none may go back through the queue,
 * or after three refusals it would land in the dead-letter queue. Takes about 30 s by design: 21 requests 1.4 seconds
 * apart (the interval and its send window). (It used 5 s and 30 pages, 3 minutes, until issue 21: any interval above
 * the limiter's one-second horizon makes the same point.)
 */
@ExtendWith(EmbeddedAwsExtension.class)
@Order(4) // started early: one of the longest (junit-platform.properties)
class SlowSiteEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int PAGES = 20;
    private static final Duration INTERVAL = Duration.ofMillis(1250);

    @Test
    void batch_whenSiteAllowsOneRequestEvery1250Ms_expectEveryPageFetchedAndTheDeadLetterQueueEmpty(
            EmbeddedAws aws, StackResources resources, @TempDir Path dir) throws Exception {
        aws.sqs().setQueueAttributes(b -> b.queueUrl(resources.fetchQueueUrl()).attributes(Map.of(
                QueueAttributeName.REDRIVE_POLICY, "{\"deadLetterTargetArn\":\"" + arn(aws, resources.fetchDlqUrl())
                        + "\",\"maxReceiveCount\":\"3\"}")));
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            var urls = JSON.createArrayNode();
            for (int p = 0; p < PAGES; p++) {
                site.page("/slow/" + p, "<title>" + p + "</title>");
                urls.add(site.url("/slow/" + p));
            }
            Path rates = Files.writeString(dir.resolve("rates.txt"), site.host() + " 0.8\n");
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                    .withConfig("spiderling.fetch.rate-overrides-file", rates.toString()))) {
                HttpResponse<String> posted = HTTP.send(LocalApi.request(local, "/batches")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().set("urls", urls)
                                .toString())).build(), HttpResponse.BodyHandlers.ofString());
                String batchId = JSON.readTree(posted.body()).get("batchId").asText();

                // Slots are the interval plus its send window (a tenth) apart: 21 requests take about 29 s.
                JsonNode status = awaitDone(local, batchId, INTERVAL.multipliedBy(PAGES + 12).multipliedBy(11)
                        .dividedBy(10));

                assertTrue(status.get("done").asBoolean(), status + "; the site saw " + site.requests().size()
                        + " requests");
                assertEquals(PAGES, status.at("/counts/fetched").asInt(), status.toString());
            }
            List<RecordedRequest> log = site.requests();
            assertEquals(PAGES + 1, log.size(), "each page once, and robots.txt");
            for (int i = 1; i < log.size(); i++) {
                Duration gap = Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt());
                assertTrue(gap.compareTo(INTERVAL.minusMillis(50)) >= 0, "requests only " + gap + " apart");
            }
            assertEquals(List.of(), aws.sqs().receiveMessage(b -> b.queueUrl(resources.fetchDlqUrl())
                    .waitTimeSeconds(1)).messages(), "the dead-letter queue stays empty");
        }
    }

    private static String arn(EmbeddedAws aws, String queueUrl) {
        return aws.sqs().getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
    }
}
