import { DatabaseForm as SharedDatabaseForm } from '../components/database-form/DatabaseForm';

/**
 * The setup's database step: the shared connection form (components/database-form) with the basics only; the admin
 * console's Databases area uses the same form with SSL, schedules and options.
 */
export function DatabaseForm({ onCreated, onCancel }: { onCreated(): void; onCancel(): void }) {
  return (
    <SharedDatabaseForm
      variant="setup"
      label="Connect a database"
      submitLabel="Connect database"
      onSaved={onCreated}
      onCancel={onCancel}
      cancelLabel="Back"
    />
  );
}
