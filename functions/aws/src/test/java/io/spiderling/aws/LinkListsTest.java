package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The packed link lists: what goes in comes out, none is no attribute, and a page's links take a fraction of a KB. */
class LinkListsTest {

    @Test
    void pack_whenNoLinks_isNoAttribute() {
        assertEquals(Optional.empty(), LinkLists.pack(List.of()));
        assertEquals(List.of(), LinkLists.unpack(null));
    }

    @Test
    void unpack_whenPacked_givesTheSameLinksInOrder() {
        List<String> links = List.of("https://example.com/a", "", "https://example.com/a", "https://例え.jp/ü?q=1",
                "https://example.com/" + "y".repeat(70_000));

        assertEquals(links, LinkLists.unpack(LinkLists.pack(links).orElseThrow()));
    }

    /** A hundred links of one news site, as a page lists them: the text is 6.7 KB, which a row bills as 7 units. */
    @Test
    void pack_whenAPagesHundredLinks_takesUnderAThirdOfTheirText() {
        List<String> links = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            links.add("https://news.example.com/" + (2020 + i % 6) + "/" + (1 + i % 12) + "/story-number-" + i
                    + "-about-something-else");
        }
        int text = links.stream().mapToInt(l -> l.getBytes(StandardCharsets.UTF_8).length).sum();

        int packed = LinkLists.pack(links).orElseThrow().b().asByteArrayUnsafe().length;

        assertTrue(packed * 3 < text, packed + " bytes packed, " + text + " as text");
    }

    @Test
    void unpack_whenNotAPackedList_failsSayingSo() {
        AttributeValue garbage = AttributeValue.fromB(SdkBytes.fromUtf8String("not deflate at all"));

        RuntimeException e = assertThrows(RuntimeException.class, () -> LinkLists.unpack(garbage));
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    }
}
