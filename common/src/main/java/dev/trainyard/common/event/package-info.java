/** Domain events as published on {@code trainyard.events}: the webhook bodies of API.md §7. */
package dev.trainyard.common.event;
