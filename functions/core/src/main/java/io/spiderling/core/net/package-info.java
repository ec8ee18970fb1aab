/**
 * What the HTTP adapter must refuse or cut short, as pure decisions it applies at connect time and while reading:
 * which resolved addresses may be connected to ({@link io.spiderling.core.net.AddressPolicy}), and how much of a body,
 * decompressed or not, is kept ({@link io.spiderling.core.net.BodyLimits}, {@link io.spiderling.core.net.BoundedBody},
 * {@link io.spiderling.core.net.GzipDeflateDecoder}).
 *
 * <p>They live in core, not in the adapter, so the rules can be tested alone, in milliseconds and without a network,
 * and so they do not depend on how a particular HTTP client resolves, connects or decompresses. Nothing here resolves
 * a name or opens a socket: every input is a resolved address or bytes that were already read.
 */
package io.spiderling.core.net;
