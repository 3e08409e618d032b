/** Bull queue of webhook deliveries; a job's id is its delivery row's id. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-deliveries';

export const ALL_QUEUES = [WEBHOOK_DELIVERY_QUEUE] as const;
