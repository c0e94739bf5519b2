import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString } from 'class-validator';
import { IsPlayerName } from './seat-names.validator';

export class JoinSeatParamsDto {
  @ApiProperty({ format: 'uuid', description: 'The match id.' })
  @IsString()
  readonly id!: string;

  @ApiProperty({ type: Number, enum: [0, 1, 2], description: 'The open seat to take.' })
  // Exactly one digit: Number() would read '0x1' as 1 and ' ' as 0.
  @Transform(({ value }) => (typeof value === 'string' && /^[0-2]$/.test(value) ? Number(value) : value))
  @IsIn([0, 1, 2], { message: 'seat must be 0, 1 or 2' })
  readonly seat!: 0 | 1 | 2;
}

export class JoinSeatDto {
  @ApiProperty({ example: 'Bjørn', minLength: 1, maxLength: 40, description: 'The name shown for this seat.' })
  @IsPlayerName()
  readonly name!: string;
}

export class SeatJoinedDto {
  @ApiProperty({ format: 'uuid', example: '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a' }) readonly id!: string;
  @ApiProperty({ example: 2, description: 'The stream version after the join.' }) readonly version!: number;
  @ApiProperty({ type: Number, enum: [0, 1, 2], example: 1 }) readonly seat!: number;
  @ApiProperty({ example: 'Bjørn' }) readonly name!: string;
  @ApiProperty({ example: 'bsk_3q2l0m9VfQd0b6K0u0wz1y8yq0f7v3xA', description: 'Bearer token for this seat. Shown only once.' })
  readonly token!: string;
  @ApiProperty({ enum: ['waiting', 'playing'], example: 'waiting', description: '`playing` once this join took the last open seat.' })
  readonly status!: 'waiting' | 'playing';
}
