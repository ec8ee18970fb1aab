/** Not part of the testkit's API. */
package io.spiderling.testkit.internal;
