/**
 * Turning stored bytes into metadata. Extraction runs on content that has already been fetched, so it is a pure
 * function of the bytes and the response headers: it can be re-run after a crash or on a duplicate storage event and
 * give the same answer. It never throws on bad HTML, because the web is full of it and one page must not stop a batch.
 */
package io.spiderling.core.extract;
