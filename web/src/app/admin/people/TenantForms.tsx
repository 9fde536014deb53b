import { Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCreateTenant, useUpdateTenant, type Tenant } from '../../api/tenant';
import { showApiErrors } from '../../forms/api-errors';
import { notifySuccess } from '../../notify';
import { RenameModal } from '../../components/RenameModal';

/** Metabase's slug rule (src/modules/tenants/tenant-rules.ts): lower-case letters, digits, `-` and `_`. */
const SLUG = /^[-_a-z0-9]{1,255}$/;
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** A new tenant: its name, and its slug (what SSO sends; never changed afterwards), suggested from the name. */
export function CreateTenantForm() {
  const create = useCreateTenant();
  const form = useForm({
    initialValues: { name: '', slug: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name for the tenant.'),
      slug: (v) => (SLUG.test(v) ? null : 'Use lower-case letters, digits, - or _.'),
    },
  });
  const submit = form.onSubmit(async ({ name, slug }) => {
    try {
      const t = await create.mutateAsync({ name: name.trim(), slug });
      notifySuccess(`The tenant ${t.name} is created.`);
      form.reset();
    } catch (e) {
      showApiErrors(form, e, { onOther: (m) => form.setFieldError('name', m) });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create a tenant">
      <Group align="flex-start" gap="xs">
        <TextInput
          label="New tenant name"
          w={260}
          {...form.getInputProps('name')}
          onChange={(e) => {
            const name = e.currentTarget.value;
            if (form.values.slug === slugOf(form.values.name)) form.setFieldValue('slug', slugOf(name));
            form.setFieldValue('name', name);
          }}
        />
        <TextInput label="Slug" w={200} {...form.getInputProps('slug')} />
        <Button type="submit" mt={25} loading={create.isPending}>
          Create tenant
        </Button>
      </Group>
    </form>
  );
}

export function RenameTenantModal({ tenant, onClose }: { tenant: Tenant; onClose(): void }) {
  const update = useUpdateTenant();
  return (
    <RenameModal
      kind="tenant"
      name={tenant.name}
      pending={update.isPending}
      rename={(name) => update.mutateAsync({ id: tenant.id, name })}
      onClose={onClose}
    />
  );
}
