/**
 * How a message's send ended: the service took it (`sent`), it was not sent and may be sent again
 * (`notSent`), or nobody can tell whether the customer got it (`unknown`).
 */
export type SendOutcome = 'sent' | 'notSent' | 'unknown';

/** How a failed send ended. */
export type FailedSendOutcome = Exclude<SendOutcome, 'sent'>;
