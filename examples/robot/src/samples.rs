//! Sample values of the benchmark shapes in `schemas/bench.clad`, shared by the wire
//! benchmark (`benches/wire.rs`) and the tests. Each function documents its packed size.

use crate::clad::bench::*;

/// (a) 32 bytes of plain numbers.
pub fn numbers() -> Numbers {
    Numbers {
        flags: 0x81,
        sequence: 42,
        head_angle_cdeg: -2250,
        timestamp: 1_234_567,
        left_wheel_speed_mmps: 51.5,
        right_wheel_speed_mmps: -49.25,
        distance_mm: 12_345.678,
        robot_id: 0x00e2_0142_dead_beef,
    }
}

/// (b) A union holding a 4-byte member: 5 bytes.
pub fn ping() -> Event {
    Event::Ping(Ping { seq: 0x0102_0304 })
}

/// (c) A union holding seven short strings: 1 tag + 7 length bytes + 62 string bytes = 70
/// bytes.
pub fn device_info() -> Event {
    Event::DeviceInfo(DeviceInfo {
        serial: "00e20142".into(),        // 8
        os_version: "v1.8.1.6051".into(), // 11
        build_type: "release".into(),     // 7
        hostname: "Vector-W1B2".into(),   // 11
        ssid: "HomeWifi5G".into(),        // 10
        locale: "en-US".into(),           // 5
        timezone: "Asia/Tokyo".into(),    // 10
    })
}

/// The robot's pose, accelerometer and gyro readings shared by the two robot-state shapes.
fn robot_pose() -> PoseStruct3d {
    PoseStruct3d {
        x: 120.5,
        y: -33.25,
        z: 0.0,
        q0: 0.92,
        q1: 0.0,
        q2: 0.0,
        q3: 0.38,
    }
}
const ACCEL: Vec3 = Vec3 {
    x: 0.1,
    y: -0.2,
    z: 9.81,
};
const GYRO: Vec3 = Vec3 {
    x: 0.001,
    y: 0.002,
    z: -0.003,
};

/// (d) The robot state with six sightings: 139 + 1 + 6 × 13 = 218 bytes.
pub fn robot_state() -> RobotState {
    RobotState {
        timestamp: 987_654,
        pose_frame_id: 17,
        pose_origin_id: 3,
        pose: robot_pose(),
        left_wheel_speed_mmps: 40.0,
        right_wheel_speed_mmps: 42.5,
        head_angle_rad: 0.35,
        lift_angle_rad: -0.1,
        accel: ACCEL,
        gyro: GYRO,
        battery: BatteryState {
            voltage: 3.95,
            temperature_deg_c: 31.0,
            level: BatteryLevel::Nominal,
            is_charging: false,
            on_charger_contacts: false,
            is_too_hot: false,
        },
        status: 0x0000_4021,
        cliff_data_raw: [1200, 1190, 1215, 1202],
        prox_data: ProxSensorData {
            distance_mm: 215,
            signal_quality: 0.87,
            unobstructed: true,
            found_object: false,
            is_lift_in_fov: false,
        },
        backpack_touch_sensor_raw: 512,
        curr_path_segment: -1,
        off_treads_state: OffTreadsState::OnTreads,
        last_path_id: 12,
        imu_temperature_deg_c: 38.5,
        motor_currents: [110.0, 115.5, 20.0, 18.25],
        sightings: (0..6)
            .map(|i| ObjectSighting {
                object_id: 100 + i,
                object_type: ObjectType::Cube,
                x_mm: 100.0 + i as f32,
                y_mm: -50.0 * i as f32,
            })
            .collect(),
    }
}

/// (e) The microphone block: 12 + 640 × 2 = 1,292 fixed bytes.
pub fn mic_data() -> MicData {
    MicData {
        timestamp: 5_550_123,
        robot_angle: 1.25,
        sequence: 77,
        data: core::array::from_fn(|i| ((i as i32 * 37) % 2000 - 1000) as i16),
    }
}

/// (f) Cloud audio in a union: 1 tag + 2 count bytes + 645 × 2 = 1,293 bytes.
pub fn cloud_audio() -> CloudAudio {
    CloudAudio::Audio(AudioSamples {
        data: (0..645).map(|i| ((i * 53) % 3000 - 1500) as i16).collect(),
    })
}

/// (g) An observed face in a union: 1 tag + 127 fixed-layout bytes + 7 name bytes = 135
/// bytes.
pub fn observed_face() -> Observation {
    Observation::RobotObservedFace(RobotObservedFace {
        face_id: 12,
        timestamp: 4_321_000,
        pose: PoseStruct3d {
            x: 410.0,
            y: 25.5,
            z: 180.25,
            q0: 0.71,
            q1: 0.0,
            q2: 0.0,
            q3: 0.70,
        },
        img_rect: Rect {
            x_top_left: 120.0,
            y_top_left: 80.0,
            width: 64.0,
            height: 72.0,
        },
        name: "Lorenzo".into(),
        expression: FacialExpression::Happiness,
        expression_values: [0.0, 0.05, 0.8, 0.05, 0.0, 0.1, 0.0, 0.0],
        left_eye: [
            Point2f { x: 140.0, y: 100.0 },
            Point2f { x: 150.0, y: 101.0 },
        ],
        right_eye: [
            Point2f { x: 165.0, y: 100.5 },
            Point2f { x: 175.0, y: 101.5 },
        ],
        gaze: [0.1, -0.05],
        is_making_eye_contact: true,
    })
}

/// (h) The engine's robot state in the engine-to-game union: 1 tag + 108 fixed bytes = 109
/// bytes.
pub fn engine_robot_state() -> EngineToGame {
    EngineToGame::RobotState(EngineRobotState {
        timestamp: 987_654,
        pose_frame_id: 17,
        pose_origin_id: 3,
        pose: robot_pose(),
        left_wheel_speed_mmps: 40.0,
        right_wheel_speed_mmps: 42.5,
        head_angle_rad: 0.35,
        lift_angle_rad: -0.1,
        accel: ACCEL,
        gyro: GYRO,
        battery_voltage: 3.95,
        status: 0x0000_4021,
        cliff_data_raw: [1200, 1190, 1215, 1202],
        backpack_touch_sensor_raw: 512,
        curr_path_segment: -1,
        off_treads_state: OffTreadsState::OnTreads,
        last_path_id: 12,
        carrying_object_id: -1,
        num_free_segment_slots: 8,
    })
}

/// (i) Four located objects in the engine-to-game union: 1 tag + 1 count + 4 × 46 = 186
/// bytes.
pub fn located_objects() -> EngineToGame {
    EngineToGame::LocatedObjectStates(LocatedObjectStates {
        objects: (0..4)
            .map(|i| LocatedObjectState {
                object_id: 200 + i,
                object_type: ObjectType::Cube,
                pose_state: 1,
                is_connected: i % 2 == 0,
                pose: PoseStruct3d {
                    x: 300.0 + 10.0 * i as f32,
                    y: -20.0 * i as f32,
                    z: 22.0,
                    q0: 1.0,
                    q1: 0.0,
                    q2: 0.0,
                    q3: 0.0,
                },
                last_observed_timestamp: 4_320_000 + 33 * i,
                distance_mm: 310.5 + i as f32,
                pose_origin_id: 3,
                is_moving: false,
            })
            .collect(),
    })
}
