import { Autocomplete, Button, Group as Row, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Database } from '../../../api/database';
import { useUserAttributeKeys, type Group } from '../../../api/permissions';

/**
 * View data "Impersonated": the group's queries on the database run under the warehouse role named by a user
 * attribute (Postgres and MariaDB/MySQL). The attribute is picked from those people have, or typed.
 */
export function ImpersonationModal(props: {
  group: Group;
  db: Database;
  attribute: string | null;
  onClose(): void;
  onSave(attribute: string): void;
}) {
  const keys = useUserAttributeKeys();
  const [attribute, setAttribute] = useState(props.attribute ?? '');
  const valid = attribute.trim() !== '';
  return (
    <Modal opened onClose={props.onClose} title={`Impersonate ${props.group.name} on ${props.db.name}`}>
      <Stack gap="sm">
        <Text size="sm">
          Queries of this group on {props.db.name} run under the database role named by each person&apos;s user attribute, so the
          database&apos;s own grants decide what they see.
        </Text>
        <Autocomplete
          label="User attribute holding the role"
          data={keys.data ?? []}
          value={attribute}
          onChange={setAttribute}
          required
          data-autofocus
        />
        <Row justify="flex-end" gap="xs">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button disabled={!valid} onClick={() => props.onSave(attribute.trim())}>
            Use this attribute
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
