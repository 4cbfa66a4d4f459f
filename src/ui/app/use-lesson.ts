/**
 * The lesson whose scenario the lab runs, for the scenario picker's name of it. The lessons (a
 * dozen lessons' texts, steps and checks) are not in the app shell: they load on demand, so
 * the lesson arrives a moment after the first render (undefined until then).
 */
import { useEffect, useState } from 'react';
import type { Lesson } from '../../lessons/types';

export function useLesson(lessonId: string | undefined): Lesson | undefined {
  const [lesson, setLesson] = useState<Lesson | undefined>(undefined);
  useEffect(() => {
    if (lessonId === undefined) return;
    let current = true;
    void import('../../lessons/catalog').then((catalog) => {
      if (current) setLesson(catalog.findLesson(lessonId));
    });
    return () => {
      current = false;
    };
  }, [lessonId]);
  return lesson !== undefined && lesson.id === lessonId ? lesson : undefined;
}
