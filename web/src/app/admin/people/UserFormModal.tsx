import { Alert, Button, Group, Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ALL_USERS_GROUP_ID, useGroups } from '../../api/permissions';
import { useCreateUser, useUpdateUser, type User } from '../../api/user';
import { showApiErrors } from '../../forms/api-errors';
import { notifySuccess } from '../../notify';
import { attributeRows, attributesOf, AttributesEditor, type AttributeRow } from './AttributesEditor';
import { generatePassword } from './password';
import { PasswordReveal } from './PasswordReveal';

interface Values {
  first_name: string;
  last_name: string;
  email: string;
  groups: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Adding a person (they get a generated password, shown once) or editing one: name, email, groups (Administrators
 * makes an admin) and attributes. Everyone is in All Users, which is not offered.
 */
export function UserFormModal({ user, opened, onClose }: { user?: User; opened: boolean; onClose(): void }) {
  const [created, setCreated] = useState<{ name: string; password: string } | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  const title = created ? `${created.name} has been added` : user ? `Edit ${user.common_name ?? user.email}` : 'Add someone';
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg">
      {created ? (
        <PasswordReveal intro="They can sign in with their email address and this password." password={created.password} onDone={close} />
      ) : (
        opened && <UserForm key={user?.id ?? 'new'} user={user} onCancel={close} onCreated={setCreated} onSaved={close} />
      )}
    </Modal>
  );
}

function UserForm(props: { user?: User; onCancel(): void; onCreated(c: { name: string; password: string }): void; onSaved(): void }) {
  const { user } = props;
  const groups = useGroups();
  const create = useCreateUser();
  const update = useUpdateUser(user?.id ?? 0);
  const [rows, setRows] = useState<AttributeRow[]>(attributeRows(user?.login_attributes));
  const [attrError, setAttrError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: {
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      email: user?.email ?? '',
      groups: (user?.group_ids ?? []).filter((id) => id !== ALL_USERS_GROUP_ID).map(String),
    },
    validate: { email: (v) => (EMAIL.test(v.trim()) ? null : 'Enter a valid email address.') },
  });
  const options = (groups.data ?? []).filter((g) => g.id !== ALL_USERS_GROUP_ID).map((g) => ({ value: String(g.id), label: g.name }));

  const submit = form.onSubmit(async (v) => {
    setFormError(null);
    const attrs = attributesOf(rows);
    setAttrError('error' in attrs ? attrs.error : null);
    if ('error' in attrs) return;
    const body = {
      email: v.email.trim(),
      first_name: v.first_name.trim() || null,
      last_name: v.last_name.trim() || null,
      user_group_memberships: [ALL_USERS_GROUP_ID, ...v.groups.map(Number)].map((id) => ({ id })),
      login_attributes: Object.keys(attrs.value).length ? attrs.value : null,
    };
    try {
      if (user) {
        const saved = await update.mutateAsync(body);
        notifySuccess(`${saved.common_name ?? saved.email} is saved.`);
        props.onSaved();
      } else {
        const password = generatePassword();
        const saved = await create.mutateAsync({ ...body, password });
        props.onCreated({ name: saved.common_name ?? saved.email, password });
      }
    } catch (e) {
      showApiErrors(form, e, {
        fields: { user_group_memberships: 'groups' },
        onOther: (m) => (e instanceof Error && /attribute/i.test(m) ? setAttrError(m) : setFormError(m)),
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={user ? 'Edit user' : 'Add someone'}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput label="First name" autoComplete="off" data-autofocus {...form.getInputProps('first_name')} />
          <TextInput label="Last name" autoComplete="off" {...form.getInputProps('last_name')} />
        </Group>
        <TextInput label="Email address" type="email" required autoComplete="off" {...form.getInputProps('email')} />
        <MultiSelect
          label="Groups"
          description="Everyone is in All Users. Administrators can change everything."
          data={options}
          searchable
          placeholder={form.getValues().groups.length ? undefined : 'Choose groups'}
          {...form.getInputProps('groups')}
        />
        <AttributesEditor
          rows={rows}
          onChange={(next) => {
            // The message was about what is now being changed.
            setRows(next);
            setAttrError(null);
          }}
          error={attrError}
          user={user}
        />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {user ? 'Save changes' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
