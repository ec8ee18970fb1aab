package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MessageGroupsTest {

    /** Held so that JUL keeps the level: it references loggers weakly. */
    private static final Logger MESSAGE_GROUPS_LOG = Logger.getLogger(MessageGroups.class.getName());
    private static Level savedLevel;

    @BeforeAll
    static void silenceExpectedFailureWarnings() {
        savedLevel = MESSAGE_GROUPS_LOG.getLevel();
        MESSAGE_GROUPS_LOG.setLevel(Level.OFF);
    }

    @AfterAll
    static void restoreLogLevel() {
        MESSAGE_GROUPS_LOG.setLevel(savedLevel);
    }

    /** A message written {@code a2!}: group {@code a}, id {@code a2}, and {@code !} when its handler throws. */
    private record Message(String id, String group, boolean throwsOnHandle) {

        private static final Pattern NOTATION = Pattern.compile("(([a-z]+)[0-9]+)(!?)");

        static Message parse(String token) {
            Matcher m = NOTATION.matcher(token);
            if (!m.matches()) {
                throw new IllegalArgumentException("bad message notation: " + token);
            }
            return new Message(m.group(1), m.group(2), !m.group(3).isEmpty());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            # case,                                   messages,             handled,        failed
            empty batch,                              ,                     ,
            all succeed,                              a1 b1 a2 b2,          a1 b1 a2 b2,
            failure fails the rest of its group only, a1 a2! a3 b1 b2,      a1 a2 b1 b2,    a2 a3
            first message of a group fails,           a1! a2 a3,            a1,             a1 a2 a3
            interleaved groups,                       a1 b1 a2! b2 a3 b3,   a1 b1 a2 b2 b3, a2 a3
            failures in two groups,                   a1! b1 b2! a2 b3 c1,  a1 b1 b2 c1,    a1 b2 a2 b3
            last message fails,                       a1 b1 a2!,            a1 b1 a2,       a2
            """)
    void process_whenTableCase_handlesInOrderAndFailsTheRestOfAFailedGroup(
            String name, String messages, String handled, String failed) {
        List<String> calls = new ArrayList<>();

        List<Message> result = MessageGroups.process(tokens(messages).stream().map(Message::parse).toList(),
                Message::group, message -> {
                    calls.add(message.id());
                    if (message.throwsOnHandle()) {
                        throw new IllegalStateException("store down for " + message.id());
                    }
                });

        assertEquals(tokens(handled), calls, "handler calls, in order");
        assertEquals(tokens(failed), result.stream().map(Message::id).toList(), "reported as failed, in order");
    }

    private static List<String> tokens(String spaced) {
        return spaced == null ? List.of() : Arrays.asList(spaced.trim().split(" +"));
    }
}
