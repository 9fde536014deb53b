import { macroController } from './macro.controller';

/** /api/segment (spec "Segment (v0.48)"). */
export class SegmentsController extends macroController('segment') {}
