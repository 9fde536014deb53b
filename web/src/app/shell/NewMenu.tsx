import { Button, Menu } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useCollection } from '../api/collection';

// The dialogs come with the collections' chunk when first asked for, not with every page.
const CreateDialog = lazy(async () => ({ default: (await import('../collections/CreateDialogs')).CreateDialog }));

/**
 * "New": what a person can create. A dashboard or a collection is created here (in the collection the person is in);
 * the question, SQL and model editors open at their own pages.
 */
export function NewMenu() {
  const [creating, setCreating] = useState<'collection' | 'dashboard' | null>(null);
  const { pathname } = useLocation();
  const here = /^\/collection\/(\d+)/.exec(pathname)?.[1];
  const current = useCollection(here ? Number(here) : null).data;
  const parent = here && current ? { id: Number(here), name: current.name } : undefined;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="light">New</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to="/question/notebook">
            Question
          </Menu.Item>
          <Menu.Item component={Link} to="/question/notebook?type=native">
            SQL query
          </Menu.Item>
          <Menu.Item onClick={() => setCreating('dashboard')}>Dashboard</Menu.Item>
          <Menu.Item onClick={() => setCreating('collection')}>Collection</Menu.Item>
          <Menu.Item component={Link} to="/model/new">
            Model
          </Menu.Item>
          <Menu.Item component={Link} to="/metric/new">
            Metric
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {creating && (
        <Suspense fallback={null}>
          <CreateDialog kind={creating} parent={parent} onClose={() => setCreating(null)} />
        </Suspense>
      )}
    </>
  );
}
