/**
 * Carries out the source-host work the engine's state asks for ({@code Effect}s: build a test
 * branch, land a run, delete a branch) off the listener threads, and reports each result back as a
 * command on the queue's key. Effects are derived from stored state, so after a crash they are
 * simply asked for again; each is safe to repeat.
 */
package dev.trainyard.worker.effects;
