package io.spiderling.core.port;

import io.spiderling.core.notify.DeliveryPolicy;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;

/** POSTs a signed webhook body, connecting only to addresses the callback policy checked. */
public interface WebhookSender {

    /**
     * @param addresses the checked addresses of the URI's host, tried in order; the connection never goes elsewhere
     * @return the answer's status, or how sending failed; never throws for a network problem
     */
    DeliveryPolicy.Attempt post(URI uri, List<InetAddress> addresses, byte[] body, Map<String, String> headers);
}
