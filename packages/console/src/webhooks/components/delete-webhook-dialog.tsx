import { useDeleteWebhook, type Webhook } from '../api/webhooks';
import { ConfirmDialog } from '../../shared/components/dialogs';

/** Deleting a subscription, once confirmed: its pending retries stop. */
export function DeleteWebhookDialog({
  webhook,
  onClose,
}: {
  webhook: Webhook;
  onClose: () => void;
}) {
  const remove = useDeleteWebhook();
  return (
    <ConfirmDialog
      titleId="delete-webhook-title"
      title="Delete this subscription?"
      call={remove}
      action={{ label: 'Delete subscription', pending: 'Deleting…' }}
      danger
      onConfirm={() => remove.mutate(webhook.id, { onSuccess: onClose })}
      onClose={onClose}
    >
      <p>
        Nothing more will be sent to <code className="wrap">{webhook.url}</code>, and its pending
        retries stop. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
