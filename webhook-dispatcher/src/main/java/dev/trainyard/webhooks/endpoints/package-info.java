/** The endpoints the gateway wrote, as the dispatcher reads them, and their health. */
package dev.trainyard.webhooks.endpoints;
