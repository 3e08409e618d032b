import { Column, Entity } from 'typeorm';
import { ChangingRow, Timestamp, Varchar } from '../database/columns.js';

export const PLANS = ['basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

@Entity('organization')
export class Organization extends ChangingRow {
  @Varchar(255) name!: string;

  @Column({ type: 'enum', enum: PLANS, enumName: 'organization_plan' })
  plan!: Plan;

  /** Anchor of the monthly billing period (its day of month, in UTC). */
  @Timestamp() subscriptionStartedAt!: Date;

  /** A custom monthly limit agreed with sales; null = the plan's. */
  @Column({ type: 'integer', nullable: true })
  monthlyCallLimit!: number | null;
}
