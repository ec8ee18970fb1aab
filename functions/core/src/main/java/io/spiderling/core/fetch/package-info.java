/**
 * Fetch jobs, what a fetch produced, and the readers of the HTTP values ({@link io.spiderling.core.fetch.HttpDate},
 * {@link io.spiderling.core.fetch.DeltaSeconds}) that the politeness and recrawl decisions share. The decisions
 * themselves live in {@code politeness} and {@code recrawl}; they stay pure functions of the job, the site's state and
 * the time.
 */
package io.spiderling.core.fetch;
