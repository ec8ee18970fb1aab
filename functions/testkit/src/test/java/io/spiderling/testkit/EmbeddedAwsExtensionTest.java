package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedAwsExtension.class)
class EmbeddedAwsExtensionTest {

    private final StackResources fromConstructor;

    EmbeddedAwsExtensionTest(StackResources fromConstructor) {
        this.fromConstructor = fromConstructor;
    }

    @Test
    void resolveParameter_whenSameClass_givesConstructorAndMethodTheSameResources(StackResources res) {
        assertEquals(fromConstructor, res);
        assertTrue(res.prefix().startsWith("embedded-aws-extension-test-"), res.prefix());
    }

    @Test
    void prefixFor_whenClassNameIsCamelCase_returnsHyphenatedLowerCaseWithCounter() {
        String prefix = EmbeddedAwsExtension.prefixFor(FetchHandlerIT.class);

        assertTrue(prefix.matches("fetch-handler-it-\\d+"), prefix);
        assertNotEquals(prefix, EmbeddedAwsExtension.prefixFor(FetchHandlerIT.class));
    }

    @Test
    void prefixFor_whenClassNameIsLong_staysWithinTheProvisionerLimit(EmbeddedAws aws) {
        String prefix = EmbeddedAwsExtension.prefixFor(AVeryLongTestClassNameThatGoesOnAboutFetchingPolitelyTest.class);

        assertTrue(prefix.length() <= 55, prefix);
        assertEquals(prefix, aws.provision(prefix).prefix());
    }

    @Nested
    class Inner {
        @Test
        void resolveParameter_whenNestedClass_givesTheEnclosingClassResources(StackResources res) {
            assertEquals(fromConstructor, res);
        }
    }

    private static final class FetchHandlerIT {}

    private static final class AVeryLongTestClassNameThatGoesOnAboutFetchingPolitelyTest {}
}
