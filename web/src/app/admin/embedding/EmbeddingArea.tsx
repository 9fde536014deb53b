import { Navigate, Route, Routes } from 'react-router';
import { NotFound } from '../../components/NotFound';
import { SubNav } from '../SubNav';
import { EmbeddingSecurity } from './EmbeddingSecurity';
import { InteractiveEmbedding } from './InteractiveEmbedding';
import { ModularEmbedding } from './ModularEmbedding';
import { StaticEmbedding } from './StaticEmbedding';

const BASE = '/admin/embedding';

/** Admin > Embedding: the spec's "Modular embedding" and "Security" screens, static and interactive embedding. */
export default function EmbeddingArea() {
  return (
    <>
      <SubNav
        label="Embedding"
        items={[
          { to: `${BASE}/modular`, label: 'Modular embedding' },
          { to: `${BASE}/static`, label: 'Static embedding' },
          { to: `${BASE}/interactive`, label: 'Interactive embedding' },
          { to: `${BASE}/security`, label: 'Security' },
        ]}
      />
      <Routes>
        <Route index element={<Navigate to="modular" replace />} />
        <Route path="modular" element={<ModularEmbedding />} />
        <Route path="static" element={<StaticEmbedding />} />
        <Route path="interactive" element={<InteractiveEmbedding />} />
        <Route path="security" element={<EmbeddingSecurity />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}
