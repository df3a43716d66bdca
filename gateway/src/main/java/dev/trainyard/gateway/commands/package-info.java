/**
 * Request-reply over Kafka: a mutation becomes a command on the queue's key, and the gateway
 * instance that sent it waits for the worker's reply, matched by correlation id. Every instance
 * reads every reply partition from its start time on, so any number of gateways work side by side.
 */
package dev.trainyard.gateway.commands;
