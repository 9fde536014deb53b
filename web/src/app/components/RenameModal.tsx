import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showApiErrors } from '../forms/api-errors';
import { notifySuccess } from '../notify';

/**
 * "Rename <name>": one name field, required, the server's refusals shown at it. `kind` names the thing in the
 * labels and messages ("group": "Group name", "The group is renamed …").
 */
export function RenameModal(props: {
  kind: string;
  name: string;
  pending: boolean;
  rename(name: string): Promise<unknown>;
  onClose(): void;
}) {
  const { kind, onClose } = props;
  const form = useForm({
    initialValues: { name: props.name },
    validate: { name: (v) => (v.trim() ? null : `Enter a name for the ${kind}.`) },
  });
  const submit = form.onSubmit(async ({ name }) => {
    try {
      await props.rename(name.trim());
      notifySuccess(`The ${kind} is renamed ${name.trim()}.`);
      onClose();
    } catch (e) {
      showApiErrors(form, e, { onOther: (m) => form.setFieldError('name', m) });
    }
  });
  const label = `${kind[0].toUpperCase()}${kind.slice(1)} name`;
  return (
    <Modal opened onClose={onClose} title={`Rename ${props.name}`}>
      <form onSubmit={submit} noValidate aria-label={`Rename ${kind}`}>
        <Stack gap="md">
          <TextInput label={label} data-autofocus {...form.getInputProps('name')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={props.pending}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
