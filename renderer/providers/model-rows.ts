import type { ProviderView } from '../../app/contract/host-api.js';

export const AXES = ['cost', 'speed', 'intelligence'] as const;
export type Axis = (typeof AXES)[number];
export const AXIS_HINTS: Record<Axis, string> = {
  cost: '0 cheapest, 1 dearest',
  speed: '1 fastest',
  intelligence: '1 most capable'
};

/** One row of the models editor, as typed. */
export interface ModelRow {
  key: number;
  name: string;
  ratings: Record<Axis, string>;
}

let nextKey = 0;

/** A row for a model (or an empty one). */
export function modelRow(model?: ProviderView['models'][number]): ModelRow {
  nextKey += 1;
  const rating = (axis: Axis) => {
    const value = model?.ratings?.[axis];
    return value === undefined ? '' : String(value);
  };
  return {
    key: nextKey,
    name: model?.name ?? '',
    ratings: { cost: rating('cost'), speed: rating('speed'), intelligence: rating('intelligence') }
  };
}

/** "cost 0.2 · speed 0.8" for the ratings that are set. */
export function ratingsText(ratings: ProviderView['models'][number]['ratings']): string {
  if (!ratings) return '';
  return AXES.filter((axis) => ratings[axis] !== undefined)
    .map((axis) => `${axis} ${ratings[axis]}`)
    .join(' · ');
}
