package io.spiderling.core.testing;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.port.FetchQueue;
import java.util.ArrayList;
import java.util.List;

/** A {@link FetchQueue} that keeps every call's jobs, in order, and never fails. */
public final class RecordingFetchQueue implements FetchQueue {

    private final CallLog log;
    private final List<List<FetchJob>> sends = new ArrayList<>();

    public RecordingFetchQueue(CallLog log) {
        this.log = log;
    }

    @Override
    public void enqueue(List<FetchJob> jobs) {
        log.record("FetchQueue", "enqueue", jobs.size());
        sends.add(List.copyOf(jobs));
    }

    /** The jobs of each {@link #enqueue} call, one list per call. */
    public List<List<FetchJob>> sends() {
        return List.copyOf(sends);
    }
}
