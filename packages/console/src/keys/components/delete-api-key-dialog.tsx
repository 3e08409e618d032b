import { useDeleteApiKey, type ApiKey } from '../api/api-keys';
import { ConfirmDialog } from '../../shared/components/dialogs';

/** Deleting a key, once confirmed: it stops working at once. */
export function DeleteApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const remove = useDeleteApiKey();
  return (
    <ConfirmDialog
      titleId="delete-key-title"
      title={`Delete the key “${apiKey.name}”?`}
      call={remove}
      action={{ label: 'Delete key', pending: 'Deleting…' }}
      danger
      onConfirm={() => remove.mutate(apiKey.id, { onSuccess: onClose })}
      onClose={onClose}
    >
      <p>
        Pipelines using <code>{apiKey.prefix}…</code> will be refused at once. This cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
