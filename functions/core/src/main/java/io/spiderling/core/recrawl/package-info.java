/**
 * When a URL is fetched again. Pure functions of the stored record, the response's caching headers, the window and
 * the time, so the rules can be table-tested without a store.
 */
package io.spiderling.core.recrawl;
