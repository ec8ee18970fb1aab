/**
 * Whether a page changed since the copy before it: the change digest's comparison (ADR 18), pure.
 */
package io.spiderling.core.change;
