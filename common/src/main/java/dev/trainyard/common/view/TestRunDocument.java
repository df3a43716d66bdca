package dev.trainyard.common.view;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A test run in the {@code test_runs} collection: written by the worker whenever what the run shows
 * changes, read by the gateway by id.
 */
public record TestRunDocument(
    @JsonProperty("_id") String id, String queueKey, TestingDetails details) {}
