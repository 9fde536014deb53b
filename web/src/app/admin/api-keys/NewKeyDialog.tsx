import { Button, Group, Modal, Stack } from '@mantine/core';
import { Warning } from '../../components/Warning';
import type { ApiKey } from '../../api/api-key';
import { CopyField } from '../../components/CopyField';

/** A key just created or regenerated: the one time it is shown (the server keeps only its hash). */
export function NewKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose(): void }) {
  return (
    <Modal opened onClose={onClose} title="Copy your API key" centered size="lg">
      <Stack gap="sm">
        <Warning title="It is shown only now">
          Copy the key and keep it somewhere safe. Once this window is closed it cannot be shown again; regenerate it if it is lost.
        </Warning>
        <CopyField label="API key" value={apiKey.unmasked_key ?? ''} styles={{ input: { fontFamily: 'monospace' } }} />
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
