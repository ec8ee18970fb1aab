/**
 * The frontier: each site's backlog parked in DynamoDB and released into the FIFO fetch queue a few jobs at a time,
 * so no site holds more than its depth cap of the queue and clients sharing a site are interleaved.
 */
package io.spiderling.core.frontier;
