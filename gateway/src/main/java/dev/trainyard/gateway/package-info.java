/**
 * The HTTP edge of trainyard: authentication, validation, limits and error mapping; turns mutations
 * into commands sent over Kafka (waiting for the worker's reply) and serves reads from the MongoDB
 * read model.
 */
package dev.trainyard.gateway;
