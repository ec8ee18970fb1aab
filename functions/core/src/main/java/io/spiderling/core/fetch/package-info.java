/**
 * Fetch jobs and what a fetch produced. The politeness decisions (robots, rate, retry) join this package in later
 * stages; they stay pure functions of the job, the site's state and the time.
 */
package io.spiderling.core.fetch;
